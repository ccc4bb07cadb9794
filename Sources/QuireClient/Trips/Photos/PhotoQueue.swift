import Foundation
import QuireCrypto
import QuireTrips

/// Adds photos to items and removes them, on the device alone (issue 16): what `quire trip
/// photo add` and `rm` call. Adding returns once the photo is queued; the upload runs in the
/// next sync (``PhotosSyncPart``).
///
/// Adding prepares the photo (``PhotoPreparing``: location removed unless kept, a thumbnail),
/// seals the photo and its thumbnail each under a fresh key of its own into the media folder
/// (``ChunkedSealer``, streaming: the photo is never in memory whole), notes the plaintext's
/// SHA-256 and queues the media row. The source file is never changed, and the plaintext copies
/// the preparer made are deleted once sealed.
public struct PhotoQueue: Sendable {
    public let trips: TripsDatabase
    /// The data directory's `media` folder: the sealed files waiting to upload.
    public let mediaDirectory: URL
    public let preparer: any PhotoPreparing

    public init(trips: TripsDatabase, mediaDirectory: URL, preparer: any PhotoPreparing) {
        self.trips = trips
        self.mediaDirectory = mediaDirectory
        self.preparer = preparer
    }

    /// Queues the photo at `source` on `item` and returns it (state `queued`).
    /// - Throws: ``PhotoError`` `.unreadableFile` for a path that is not a readable file,
    ///   `.notPrepared` when the preparer refuses it (its message says why);
    ///   ``TripsDatabaseError`` `.unknownItem`, `.deletedItem`; ``ChunkedCipherError`` when the
    ///   media folder cannot be written. Nothing is queued or left behind when it throws.
    public func add(_ source: URL, to item: ItemID, keepLocation: Bool) async throws -> TripPhoto {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder), !isFolder.boolValue,
            FileManager.default.isReadableFile(atPath: source.path)
        else {
            throw PhotoError(.unreadableFile, "\(source.path) is not a file this device can read; give a photo's path")
        }
        guard let record = try await trips.item(item) else {
            throw TripsDatabaseError(.unknownItem, "no item \(item) on this device")
        }
        guard !record.isDeleted else {
            throw TripsDatabaseError(.deletedItem, "item \(item) is deleted; restore it first")
        }
        let id = UUID().uuidString.lowercased()
        let work = mediaDirectory.appendingPathComponent(".prepare-\(id)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: work) }
        let prepared: PreparedPhoto
        do {
            // Decoding blocks (a process, or an image library): off the concurrency pool.
            let preparer = preparer
            prepared = try await BlockingWork.run {
                try preparer.prepare(source, keepLocation: keepLocation, into: work)
            }
        } catch let error as PhotoError {
            throw error
        } catch {
            throw PhotoError(.notPrepared, "\(source.lastPathComponent) could not be prepared for upload: \(error)")
        }
        let photoName = "\(id).sealed"
        let thumbnailName = prepared.thumbnail.map { _ in "\(id).thumb.sealed" }
        let mediaDirectory = mediaDirectory
        do {
            let (photo, thumbnail) = try await BlockingWork.run {
                (
                    try Self.seal(prepared.photo, to: mediaDirectory.appendingPathComponent(photoName)),
                    try prepared.thumbnail.map {
                        try Self.seal($0, to: mediaDirectory.appendingPathComponent(thumbnailName!))
                    }
                )
            }
            let attachment = PhotoAttachment(
                photo: photo, thumbnail: thumbnail, mediaType: prepared.mediaType, width: prepared.width,
                height: prepared.height)
            try await trips.queueMedia(
                TripsDatabase.MediaUpload(
                    id: id, trip: record.trip, item: item, localFile: photoName, thumbnailFile: thumbnailName,
                    size: photo.sealedSize, thumbnailSize: thumbnail?.sealedSize, attachment: attachment))
            return TripPhoto(
                id: id, trip: record.trip, item: item, state: .queued,
                uploadBytes: photo.sealedSize + (thumbnail?.sealedSize ?? 0), mediaType: prepared.mediaType,
                size: photo.size)
        } catch {
            for name in [photoName, thumbnailName].compactMap({ $0 }) {
                try? FileManager.default.removeItem(at: mediaDirectory.appendingPathComponent(name))
            }
            throw error
        }
    }

    /// Removes a photo: from the queue (and its sealed files) when it is not attached yet, else
    /// with a removal op, sent at the next sync. An upload it had started on the server is
    /// terminated by the next sync (tus DELETE), so it stops counting against the quota.
    /// - Throws: ``PhotoError`` `.unknownPhoto`; ``TripsDatabaseError`` `.deletedItem`.
    public func remove(_ photo: String) async throws {
        for name in try await trips.removePhoto(photo) {
            try? FileManager.default.removeItem(at: mediaDirectory.appendingPathComponent(name))
        }
    }

    /// Seals `file` under a new key into `output`; the attachment's part without its upload id.
    static func seal(_ file: URL, to output: URL) throws -> PhotoAttachment.File {
        let key = SymmetricKey256.random()
        let sizes = try ChunkedSealer.sealFile(at: file, to: output, key: key)
        return PhotoAttachment.File(
            upload: "", key: key.data.base64EncodedString(), size: Int64(sizes.plaintextBytes),
            sealedSize: Int64(sizes.sealedBytes), sha256: try SHA256Hasher.hexDigest(ofFile: file))
    }
}
