import Foundation

/// The device's downloaded photos (issue 16): a folder of verified plaintexts named by upload
/// id, and the ciphertexts being downloaded beside them (`<upload>.partial`, so a cut download
/// resumes from what is on disk), bounded by ``capacity`` bytes: the least recently used go
/// first. Each use sets a file's modification time, which is what "recently" means here (access
/// times are unreliable on `noatime` and `relatime` mounts).
///
/// One file a photo and no index, so two processes of the device (`quire watch` beside `quire
/// trip photo get`) can share it: the worst a race does is download a photo twice.
public struct PhotoCache: Sendable {
    public let directory: URL
    public let capacity: Int64

    /// 512 MiB by default.
    public static let defaultCapacity: Int64 = 512 * 1024 * 1024

    public init(directory: URL, capacity: Int64 = PhotoCache.defaultCapacity) {
        self.directory = directory
        self.capacity = capacity
    }

    /// The verified photo of `upload`, when the cache holds it (marked as used).
    package func cached(_ upload: String) -> URL? {
        let url = file(upload)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        touch(url)
        return url
    }

    /// Where the verified photo of `upload` goes.
    package func file(_ upload: String) -> URL { directory.appendingPathComponent(upload) }

    /// Where the ciphertext of `upload` is downloaded to.
    package func partial(_ upload: String) -> URL { directory.appendingPathComponent(upload + ".partial") }

    package func prepare() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Removes the least recently used files until the folder holds at most ``capacity`` bytes,
    /// never `keeping` (the photo just asked for, which is used right after).
    package func evict(keeping: URL) {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard
            let files = try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys)
        else { return }
        var entries = files.compactMap { url -> (url: URL, size: Int64, used: Date)? in
            guard let values = try? url.resourceValues(forKeys: Set(keys)), let size = values.fileSize else {
                return nil
            }
            return (url, Int64(size), values.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.size }
        entries.sort { $0.used < $1.used }
        for entry in entries where total > capacity && entry.url.lastPathComponent != keeping.lastPathComponent {
            try? FileManager.default.removeItem(at: entry.url)
            total -= entry.size
        }
    }

    package func touch(_ url: URL) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    }
}
