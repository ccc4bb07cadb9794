import Foundation

extension PhotosSyncPart {
    /// Thumbnails downloaded in one run at most: a device that joins a trip of thousands of
    /// photos gets them over a few runs, never one sync that holds everything else up.
    static let thumbnailsPerRun = 64

    /// Downloads the thumbnails of companions' photos this device has not seen yet into the
    /// cache (each verified as any download is), so a trip's photos show at once, offline too,
    /// before anyone asks for a full photo (issue 16, part 4). Returns how many it fetched.
    ///
    /// A thumbnail that fails is left for the next run; a failure of the network ends this pass
    /// quietly, since the notes and trips parts report the network themselves. Cancelling stops
    /// it between thumbnails.
    func prefetchThumbnails() async -> Int {
        guard let downloader else { return 0 }
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: downloader.cache.directory.path)) ?? []
        guard let photos = try? await database.thumbnailsToFetch(limit: Self.thumbnailsPerRun, cached: Set(cached))
        else { return 0 }
        var fetched = 0
        for photo in photos where !Task.isCancelled {
            do {
                _ = try await downloader.fetch(photo, thumbnail: true)
                fetched += 1
            } catch is PhotoError {
                continue  // damaged, removed meanwhile, unreadable: the next run tries again
            } catch {
                break  // the server cannot be reached
            }
        }
        return fetched
    }
}
