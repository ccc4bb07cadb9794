import Foundation

/// How the server takes resumable uploads (issue 16): where their bytes go and how many it
/// accepts. Part of ``NotesServerConfiguration``.
public struct UploadSettings: Sendable, Equatable {
    /// The directory of the ``FileBlobStore`` (`--blobs DIR`); nil (the default of an in-process
    /// server) turns the upload routes off: they answer 501. `quire-server` always sets one, by
    /// default a folder beside its database.
    public var blobDirectory: String?

    /// The longest one upload may declare (`Upload-Length`, and `Tus-Max-Size`), in bytes.
    /// Default 1 GiB (`--max-upload-mib`).
    public var maxUploadBytes: Int64 = 1 << 30

    /// The most bytes one account's uploads may declare together, finished or not (a quota of
    /// the blob store, apart from the notes' ``NoteQuota``). Default 10 GiB (`--upload-quota-mib`).
    public var accountQuotaBytes: Int64 = 10 << 30

    /// How long an unfinished upload lives after its creation or its last PATCH; then it answers
    /// 410 and the background work removes it. Default 24 hours (`--upload-expiry-hours`).
    public var expiry: TimeInterval = 24 * 3600

    /// The largest body one PATCH may carry, in bytes: the host holds a PATCH's body in memory
    /// until it is whole, so this bounds the memory of each upload in flight. A client sends a
    /// larger file in several PATCHes. Default 8 MiB (`--upload-chunk-mib`); the OPTIONS answer
    /// says it as `Quire-Max-Chunk-Size`.
    public var maxChunkBytes: Int = 8 << 20

    /// The slowest rate, in bytes a second, at which a PATCH body earns more time than
    /// ``MicroHTTPLimits/requestDeadlineSeconds`` to arrive: each part that arrives moves the
    /// deadline later by its size over this rate (never past now), so an 8 MiB chunk over a
    /// slow uplink is not cut off while a client sending a byte now and then still is.
    /// Default 16 KiB/s.
    public var slowestChunkRate: Int = 16 << 10

    public init(
        blobDirectory: String? = nil, maxUploadBytes: Int64 = 1 << 30, accountQuotaBytes: Int64 = 10 << 30,
        expiry: TimeInterval = 24 * 3600, maxChunkBytes: Int = 8 << 20
    ) {
        self.blobDirectory = blobDirectory
        self.maxUploadBytes = maxUploadBytes
        self.accountQuotaBytes = accountQuotaBytes
        self.expiry = expiry
        self.maxChunkBytes = maxChunkBytes
    }

    /// The blob store the settings name, nil when uploads are off.
    var blobStore: FileBlobStore? { blobDirectory.map(FileBlobStore.init(directory:)) }
}
