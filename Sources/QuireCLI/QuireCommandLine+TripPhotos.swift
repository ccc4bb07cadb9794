import Foundation
import QuireClient
import QuireTrips

// MARK: - trip photo add|get|rm, trip photos

extension QuireCommandLine {
    /// `quire trip photo add|get|rm …` (issue 16); the trips' errors are mapped by ``trip(_:)``.
    func tripPhoto(_ words: [String]) async throws {
        guard let command = words.first, ["add", "get", "rm"].contains(command) else {
            throw CLIError.usage(
                "'trip photo' needs add, get or rm"
                    + (words.first.map { ", not '\($0)'" } ?? "") + "; see 'quire trip photo --help'")
        }
        let rest = Array(words.dropFirst())
        do {
            switch command {
            case "add": try await addPhoto(rest)
            case "get": try await getPhoto(rest)
            default: try await removePhoto(rest)
            }
        } catch let error as PhotoError {
            throw Self.photoError(error)
        }
    }

    /// `quire trip photo add ITEM FILE [--keep-location]`: queues the photo and returns; the
    /// upload runs in `quire sync` or `quire watch`. Prints the photo's id.
    func addPhoto(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["keep-location"])
        let given = try arguments.expectPositionals(["item", "file"])
        let device = try openDevice()
        let item = try await resolveItem(given[0], in: device)
        try await requireEditing(item.trip, in: device)
        let source = URL(fileURLWithPath: given[1])
        let photo = try await device.photoQueue(preparer: photoPreparer).add(
            source, to: item.id, keepLocation: arguments.flag("keep-location"))
        console.out(photo.id)
    }

    /// `quire trip photos ITEM [--json]`: the item's photos and where each stands.
    func listPhotos(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        let item = try await resolveItem(text, in: device)
        let photos = try await device.trips.photos(of: item.id)
        if arguments.flag("json") {
            try console.json(photos.map(PhotoJSON.init))
            return
        }
        guard !photos.isEmpty else {
            console.out("No photos. Add one with: quire trip photo add \(item.id.short) FILE")
            return
        }
        for photo in photos { console.out(Self.photoLine(photo)) }
    }

    /// `quire trip photo get PHOTO --out FILE [--thumbnail]`: downloads (resuming), opens and
    /// checks the photo, then writes it to FILE (whole or not at all). A progress line with the
    /// total on a terminal; quiet otherwise.
    func getPhoto(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["out"], flags: ["thumbnail"])
        let text = try arguments.expectPositionals(["photo"])[0]
        guard let out = arguments.options["out"], !out.isEmpty else {
            throw CLIError.usage("'trip photo get' needs --out FILE: where to write the photo")
        }
        let device = try openDevice()
        let photo = try await device.trips.photo(text)
        let downloader = try device.makePhotoDownloader(cacheCapacity: photoCacheCapacity)
        guard let downloader else {
            throw CLIError(
                code: .config, message: "not signed in to a server; run: quire login URL USER to download photos")
        }
        let console = self.console
        let showsLine = console.stderrIsTerminal
        let cached: URL
        do {
            cached = try await downloader.fetch(photo, thumbnail: arguments.flag("thumbnail")) { done, total in
                if showsLine { console.progress("Downloading \(PhotoSizes.progress(done, of: total))…") }
            }
        } catch let error as NotesAPIError {
            if showsLine { console.progress(nil) }
            throw CLIError(
                code: error.kind == .unreachable ? .unavailable : .tempFail,
                message: "download stopped: \(error.message) What was downloaded is kept; run the same command again.")
        } catch {
            if showsLine { console.progress(nil) }
            throw error
        }
        if showsLine { console.progress(nil) }
        let destination = URL(fileURLWithPath: out)
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try FileManager.default.copyItem(at: cached, to: temporary)
            // rename(2): the photo appears whole at FILE, over what was there, or not at all.
            guard rename(temporary.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CLIError(code: .ioError, message: "cannot write \(out): \(error.localizedDescription)")
        }
    }

    /// `quire trip photo rm PHOTO`.
    func removePhoto(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: [])
        let text = try arguments.expectPositionals(["photo"])[0]
        let device = try openDevice()
        let photo = try await device.trips.photo(text)
        try await device.photoQueue(preparer: photoPreparer).remove(photo.id)
    }

    // MARK: - Helpers

    /// `1a2b3c4d  shared     image/jpeg  4.2 MB  4032×3024`, or with the upload's progress.
    static func photoLine(_ photo: TripPhoto) -> String {
        var parts = [
            String(photo.id.prefix(8)), photo.state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
            photo.mediaType ?? "?",
        ]
        if let size = photo.size { parts.append("\(PhotoSizes.megabytes(size)) MB") }
        if let attachment = photo.attachment, attachment.width > 0 {
            parts.append("\(attachment.width)x\(attachment.height)")
        }
        if photo.state == .uploading || photo.state == .queued {
            parts.append("(uploaded \(PhotoSizes.progress(photo.uploadedBytes, of: photo.uploadBytes)))")
        }
        if let error = photo.error { parts.append("— \(error)") }
        return parts.joined(separator: "  ")
    }

    /// The photo errors as the CLI reports them.
    static func photoError(_ error: PhotoError) -> CLIError {
        switch error.kind {
        case .unreadableFile, .unknownPhoto, .notPrepared, .unreadableAttachment: .data(error.message)
        case .missingFile: CLIError(code: .ioError, message: error.message)
        case .notOnServer: .data(error.message)
        case .damaged: CLIError(code: .dataError, message: error.message)
        }
    }

    /// `QUIRE_PHOTO_CACHE_MIB`: the most the downloaded photos may hold (512 MiB by default).
    var photoCacheCapacity: Int64 {
        ProcessInfo.processInfo.environment["QUIRE_PHOTO_CACHE_MIB"].flatMap(Int64.init).map { $0 * 1024 * 1024 }
            ?? PhotoCache.defaultCapacity
    }
}
