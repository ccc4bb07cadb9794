import Foundation
import QuireTrips

#if canImport(Glibc)
    import Glibc
#endif

/// Drains the photo queue (the `media` table): uploads each waiting photo's sealed files with tus
/// and, once both are complete, queues its attach op (seed 002 §8: companions see a photo only
/// after its upload is complete).
///
/// Resumable: an upload's URL is saved before its first byte is sent, and its confirmed offset
/// after every answered PATCH; a later run (after a kill, a lost connection or a restart) asks
/// HEAD where the upload stands and goes on from there. An upload the server has forgotten (404,
/// or 410 once it expired unfinished) starts again as a new one. Bounded memory: the file is read
/// one piece (``pieceSize``) at a time, never whole.
///
/// Outcomes per photo, as the engines' per change: no answer or a 5xx → the try is counted and
/// the photo waits its turn (``ChangeRetry``), the run goes on with the next (no connection at all,
/// or signed out, ends the run); a refusal (a viewer, the quota, too large) → the photo is marked
/// failed with the server's reason and kept until removed.
package actor PhotoUploader {
    let database: TripsDatabase
    let tus: TusClient
    /// The folder holding the sealed files (`media` in the data directory).
    let mediaDirectory: URL
    /// Bytes of one PATCH: at most the server's `--upload-chunk-mib`.
    let pieceSize: Int
    /// Where an attached photo's thumbnail is kept, opened, so this device shows it offline
    /// without downloading its own thumbnail back; nil to keep none.
    let thumbnails: PhotoCache?

    package init(
        database: TripsDatabase, tus: TusClient, mediaDirectory: URL, pieceSize: Int, thumbnails: PhotoCache? = nil
    ) {
        self.database = database
        self.tus = tus
        self.mediaDirectory = mediaDirectory
        self.pieceSize = max(1, pieceSize)
        self.thumbnails = thumbnails
    }

    /// Terminates the uploads of removed photos (``TripsDatabase/mediaToTerminate()``), then uploads every
    /// photo waiting now. `report.pushed` counts the photos whose attach op was
    /// queued, `refused` those the server refused, `deferred` those that wait after a failed try.
    /// Never throws: the failure (the first one that may pass, or the one that ended the run) is
    /// the report's. Cancelling stops at the next piece; what was confirmed stays.
    package func run() async -> SyncReport {
        var report = SyncReport()
        do {
            for removed in try await database.mediaToTerminate() {
                try Task.checkCancellation()
                do {
                    for location in [removed.thumbnailUploadURL, removed.uploadURL].compactMap({ $0 }) {
                        try await tus.terminate(location)
                    }
                    try await database.forgetMedia(removed.id)
                } catch let error as NotesAPIError where error.kind == .refused {
                    // Nothing more to ask of the server; the upload expires there.
                    try await database.forgetMedia(removed.id)
                } catch let error as NotesAPIError where error.kind != .unauthorized && error.kind != .unreachable {
                    // Tried again next run; the uploads wait meanwhile.
                    report.failure = report.failure ?? SyncFailure.from(error)
                }
            }
            for waiting in try await database.mediaToUpload() {
                try Task.checkCancellation()
                do {
                    try await upload(waiting)
                    report.pushed += 1
                } catch let error as NotesAPIError {
                    switch error.kind {
                    case .refused:
                        try await database.failMedia(waiting.id, reason: error.message)
                        report.refused += 1
                    case .unauthorized, .unreachable:
                        throw error
                    default:
                        try await database.recordMediaAttempt(waiting.id, error: error.description)
                        report.deferred += 1
                        report.failure = report.failure ?? SyncFailure.from(error)
                    }
                } catch let error as PhotoError {
                    try await database.failMedia(waiting.id, reason: error.message)
                    report.refused += 1
                }
            }
        } catch {
            report.failure = SyncFailure.from(error)
        }
        return report
    }

    /// Sends what is left of the photo's files, then queues its attach op and deletes the files.
    private func upload(_ upload: TripsDatabase.MediaUpload) async throws {
        var attachment = upload.attachment
        if upload.state != "uploaded" {
            for part in TripsDatabase.MediaUpload.Part.allCases {
                guard let file = upload.file(part) else { continue }
                let path = try await send(upload.id, part, file: file, trip: upload.trip)
                switch part {
                case .photo: attachment.photo.upload = TusClient.uploadID(ofPath: path)
                case .thumbnail: attachment.thumbnail?.upload = TusClient.uploadID(ofPath: path)
                }
            }
        } else {
            // Both complete before a kill stopped the attach: the uploads are the saved ones.
            attachment.photo.upload = TusClient.uploadID(ofPath: upload.uploadURL ?? "")
            attachment.thumbnail?.upload = TusClient.uploadID(ofPath: upload.thumbnailUploadURL ?? "")
        }
        try await database.attachUploaded(upload.id, attachment: attachment)
        if let thumbnails, let name = upload.thumbnailFile, let thumbnail = attachment.thumbnail {
            // Opened and checked as a download would be; the sync fetches it if this fails.
            try? thumbnails.prepare()
            try? PhotoDownloader.open(
                mediaDirectory.appendingPathComponent(name), thumbnail, into: thumbnails.file(thumbnail.upload),
                discarding: false)
        }
        for name in [upload.localFile, upload.thumbnailFile].compactMap({ $0 }) {
            try? FileManager.default.removeItem(at: mediaDirectory.appendingPathComponent(name))
        }
    }

    /// Uploads one file from where the server stands; returns its upload's path.
    private func send(
        _ id: String, _ part: TripsDatabase.MediaUpload.Part,
        file: (name: String, length: Int64, url: String?, offset: Int64), trip: TripID
    ) async throws -> String {
        let url = mediaDirectory.appendingPathComponent(file.name)
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw PhotoError(
                .missingFile,
                "the sealed copy of this photo (\(url.path)) is gone; remove the photo (quire trip photo rm) "
                    + "and add it again")
        }
        defer { try? handle.close() }
        var location = file.url
        var offset: Int64 = 0
        if let known = location, case .at(let confirmed) = try await tus.offset(of: known) {
            offset = confirmed
            try await database.saveConfirmedOffset(id, part, offset: offset)
        } else {
            location = try await create(id, part, length: file.length, trip: trip)
        }
        var restarted = false
        var stalled = 0
        // One buffer for every piece of the file: each PATCH reuses it once the last one is done.
        var buffer = Data(count: pieceSize)
        while offset < file.length {
            try Task.checkCancellation()
            let wanted = Int(min(Int64(pieceSize), file.length - offset))
            let got = try Self.read(handle.fileDescriptor, into: &buffer, count: wanted, at: offset, path: url.path)
            let piece = buffer.prefix(got)
            guard got == wanted else {
                throw PhotoError(
                    .missingFile,
                    "the sealed copy of this photo (\(url.path)) is shorter than when it was queued; remove the "
                        + "photo and add it again")
            }
            switch try await tus.append(location!, at: offset, bytes: piece) {
            case .at(let confirmed):
                // A 409's offset may be anywhere the server stands; the next piece starts there.
                stalled = confirmed == offset ? stalled + 1 : 0
                guard stalled < 3, confirmed <= file.length else {
                    throw NotesAPIError(
                        kind: .invalidResponse,
                        message: "The server did not move the upload's offset past \(confirmed).")
                }
                offset = confirmed
                try await database.saveConfirmedOffset(id, part, offset: offset)
            case .gone:
                // Expired meanwhile (or collected): once per run, start a new upload.
                guard !restarted else {
                    throw NotesAPIError(kind: .transient, message: "The server dropped the upload twice; trying later.")
                }
                restarted = true
                location = try await create(id, part, length: file.length, trip: trip)
                offset = 0
            }
        }
        return location!
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer`; returns how many (fewer
    /// only at the file's end).
    private static func read(_ descriptor: Int32, into buffer: inout Data, count: Int, at offset: Int64, path: String)
        throws -> Int
    {
        try buffer.withUnsafeMutableBytes { raw in
            var filled = 0
            while filled < count {
                let got = pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
                if got < 0, errno == EINTR { continue }
                guard got >= 0 else {
                    throw PhotoError(.missingFile, "cannot read \(path): \(String(cString: strerror(errno)))")
                }
                if got == 0 { break }
                filled += got
            }
            return filled
        }
    }

    private func create(_ id: String, _ part: TripsDatabase.MediaUpload.Part, length: Int64, trip: TripID)
        async throws -> String
    {
        let location = try await tus.create(in: trip, length: length)
        try await database.saveUploadURL(id, part, url: location)
        return location
    }
}
