import Foundation
import QuireCrypto
import QuireTrips

/// Downloads a photo of a trip (any member's), opens and checks it, and keeps it in the
/// device's ``PhotoCache`` (issue 16, part 5).
///
/// Resumable: the ciphertext is fetched with `Range` requests, one piece at a time, appended to
/// `<upload>.partial` in the cache, so a cut download goes on from what is on disk. Verified:
/// the ciphertext is opened with ``ChunkedOpener`` (a changed byte, a cut end, a chunk moved,
/// dropped or added does not open) and the plaintext's SHA-256 and size must be the ones the
/// photo's attach op carries. A photo that fails any check is never returned nor left anywhere
/// (its partial ciphertext goes too, so the next try downloads it again); the error says what
/// was wrong. This device's own photo that is not uploaded yet opens from its sealed file.
public struct PhotoDownloader: Sendable {
    let tus: TusClient
    public let cache: PhotoCache
    let trips: TripsDatabase
    let mediaDirectory: URL
    /// Bytes of one ranged GET (the server answers at most its `--upload-chunk-mib`).
    let pieceSize: Int

    package init(tus: TusClient, cache: PhotoCache, trips: TripsDatabase, mediaDirectory: URL, pieceSize: Int) {
        self.tus = tus
        self.cache = cache
        self.trips = trips
        self.mediaDirectory = mediaDirectory
        self.pieceSize = max(1, pieceSize)
    }

    /// Bytes of ciphertext on disk so far, and their total.
    public typealias Progress = @Sendable (_ done: Int64, _ total: Int64) -> Void

    /// The verified photo (or its thumbnail) as a file in the cache; copy it before the cache
    /// may evict it.
    /// - Throws: ``PhotoError`` `.damaged` for a photo that does not open or does not match,
    ///   `.notOnServer` (not uploaded, removed, not this account's to see), `.unreadableAttachment`;
    ///   ``NotesAPIError`` when the server cannot be reached (what is on disk stays, to resume).
    public func fetch(_ photo: TripPhoto, thumbnail: Bool = false, progress: Progress = { _, _ in }) async throws
        -> URL
    {
        try cache.prepare()
        if photo.attachment == nil, let local = try await trips.media(photo.id) {
            // Not attached yet: this device's own, still in its media folder.
            guard let file = thumbnail ? local.attachment.thumbnail : local.attachment.photo else {
                throw PhotoError(.notOnServer, "photo \(photo.id.prefix(8)) has no thumbnail")
            }
            let name = thumbnail ? local.thumbnailFile ?? "" : local.localFile
            let destination = cache.file(photo.id + (thumbnail ? ".thumb" : ""))
            if let cached = cache.cached(destination.lastPathComponent) { return cached }
            try Self.open(mediaDirectory.appendingPathComponent(name), file, into: destination, discarding: false)
            cache.evict(keeping: destination)
            return destination
        }
        guard let attachment = photo.attachment else {
            throw PhotoError(.unreadableAttachment, "this version cannot read photo \(photo.id.prefix(8))")
        }
        guard let file = thumbnail ? attachment.thumbnail : attachment.photo else {
            throw PhotoError(.notOnServer, "photo \(photo.id.prefix(8)) has no thumbnail")
        }
        guard file.upload.count == 32, file.upload.allSatisfy(\.isHexDigit) else {
            throw PhotoError(.unreadableAttachment, "photo \(photo.id.prefix(8)) names no upload this version reads")
        }
        if let cached = cache.cached(file.upload) { return cached }
        let partial = cache.partial(file.upload)
        try await download(file, of: photo.trip, to: partial, progress: progress)
        let destination = cache.file(file.upload)
        try Self.open(partial, file, into: destination, discarding: true)
        try? FileManager.default.removeItem(at: partial)
        cache.evict(keeping: destination)
        return destination
    }

    /// Appends the missing bytes of the upload to `partial`, piece by piece.
    private func download(_ file: PhotoAttachment.File, of trip: TripID, to partial: URL, progress: Progress)
        async throws
    {
        if !FileManager.default.fileExists(atPath: partial.path) {
            guard
                FileManager.default.createFile(
                    atPath: partial.path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw PhotoError(.missingFile, "cannot write to \(cache.directory.path)") }
        }
        let handle = try FileHandle(forWritingTo: partial)
        defer { try? handle.close() }
        var have = Int64(try handle.seekToEnd())
        if have > file.sealedSize {
            // Longer than the upload: not its bytes. Start over.
            try handle.truncate(atOffset: 0)
            have = 0
        }
        cache.touch(partial)
        progress(have, file.sealedSize)
        while have < file.sealedSize {
            try Task.checkCancellation()
            let piece: Data
            do {
                piece = try await tus.download(
                    trip: trip, upload: file.upload, from: have,
                    count: Int(min(Int64(pieceSize), file.sealedSize - have)))
            } catch let error as NotesAPIError where error.status == 404 {
                throw PhotoError(
                    .notOnServer,
                    "the server has no such photo for this account (removed, or this trip is no longer shared with you)"
                )
            } catch let error as NotesAPIError where error.code == "blob_damaged" {
                // Fewer bytes than it confirmed: open what came, which says where it was cut.
                _ = error
                break
            }
            // A shorter answer than asked: the server has no more (its copy was cut).
            try handle.write(contentsOf: piece)
            have += Int64(piece.count)
            progress(have, file.sealedSize)
            if piece.isEmpty { break }
        }
        try handle.synchronize()
    }

    /// Opens the sealed `input` into `destination` when it opens and matches `file`; otherwise
    /// leaves nothing at `destination` (and removes `input` when `discarding`) and throws
    /// ``PhotoError`` `.damaged`.
    static func open(_ input: URL, _ file: PhotoAttachment.File, into destination: URL, discarding: Bool) throws {
        guard let key = file.fileKey else {
            throw PhotoError(.unreadableAttachment, "the photo's key is not one this version reads")
        }
        let verifying = destination.appendingPathExtension("verifying")
        func refuse(_ why: String) -> PhotoError {
            try? FileManager.default.removeItem(at: verifying)
            if discarding { try? FileManager.default.removeItem(at: input) }
            return PhotoError(.damaged, "the downloaded photo is damaged and was not kept: \(why)")
        }
        let size: Int
        do {
            size = try ChunkedOpener.openFile(at: input, to: verifying, key: key)
        } catch let error as ChunkedCipherError {
            throw refuse(error.description)
        }
        let digest = try SHA256Hasher.hexDigest(ofFile: verifying)
        guard Int64(size) == file.size, digest == file.sha256 else {
            throw refuse("it opens, but its size or SHA-256 is not the one its attach op names")
        }
        if FileManager.default.fileExists(atPath: destination.path) {
            try FileManager.default.removeItem(at: destination)
        }
        try FileManager.default.moveItem(at: verifying, to: destination)
    }
}
