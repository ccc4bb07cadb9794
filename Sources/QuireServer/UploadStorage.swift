import Foundation

/// Where the server keeps what it knows of each resumable upload (issue 16): whose it is, which
/// trip it belongs to, its declared length and the offset the server has confirmed. The bytes
/// themselves are in a ``BlobStore`` under the upload's id.
///
/// `SQLiteServerStorage` and `PostgresServerStorage` implement it with the statements of
/// ``UploadQueries``; every method is one transaction. The confirmed offset only moves forward,
/// from the offset a PATCH was checked against to the end of its bytes, and only after those
/// bytes are durable in the blob store, so it is never ahead of what a crash leaves.
///
/// An upload being removed (terminated, or expired and collected) is gone to every route from
/// the moment it is marked, before its blob goes; the marked row is deleted after the blob, so a
/// crash between the two leaves a row the next pass finishes, never a blob no row names.
public protocol UploadStorage: Sendable {
    /// Stores `upload` (offset 0) when its account may edit its trip and the account's uploads
    /// with this one stay within `quotaBytes` declared bytes.
    func createUpload(_ upload: StoredUpload, quotaBytes: Int64) async throws -> UploadCreation

    /// The upload with this id if it is `account`'s, in `trip`, the account is still a member of
    /// the trip, and it is not being removed; else nil.
    func upload(_ id: String, trip: String, account: AccountID) async throws -> StoredUpload?

    /// The complete upload with this id in `trip`, whoever uploaded it, when `member` is a member
    /// of the trip (any role) and the upload is not being removed; else nil. What a download
    /// reads: every member of a trip may fetch its finished photos, no one else may learn of them.
    func completedUpload(_ id: String, trip: String, member: AccountID) async throws -> StoredUpload?

    /// Moves the upload's confirmed offset from `from` to `to` and sets its expiry (nil once
    /// complete), if it is still at `from` and not being removed.
    func confirmUpload(
        _ id: String, account: AccountID, from: Int64, to: Int64, expiresAt: Date?, now: Date
    ) async throws -> UploadConfirmation

    /// Marks the upload (as ``upload(_:trip:account:)`` finds it) for removal and returns it;
    /// nil when there is no such upload.
    func beginRemovingUpload(_ id: String, trip: String, account: AccountID) async throws -> StoredUpload?

    /// Marks up to `limit` unfinished uploads that expired before `cutoff` for removal, and
    /// returns the ids of up to `limit` marked uploads (those of an earlier pass that did not
    /// finish included).
    func beginRemovingExpiredUploads(before cutoff: Date, limit: Int) async throws -> [String]

    /// Deletes the rows of the uploads among `ids` that are marked for removal.
    func finishRemovingUploads(_ ids: [String]) async throws
}

/// One upload's row.
public struct StoredUpload: Sendable, Equatable {
    /// The server-made id: 32 lowercase hex digits, also the blob's name.
    public var id: String
    public var account: AccountID
    public var trip: String
    /// The declared length (`Upload-Length`).
    public var length: Int64
    /// The confirmed offset: bytes `0..<offset` are durable in the blob.
    public var offset: Int64
    /// `Upload-Metadata` as the client sent it (empty when it sent none).
    public var metadata: String
    public var createdAt: Date
    /// When the unfinished upload expires; nil once it is complete.
    public var expiresAt: Date?

    public init(
        id: String, account: AccountID, trip: String, length: Int64, offset: Int64 = 0, metadata: String = "",
        createdAt: Date, expiresAt: Date?
    ) {
        self.id = id
        self.account = account
        self.trip = trip
        self.length = length
        self.offset = offset
        self.metadata = metadata
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public var isComplete: Bool { offset == length }
}

/// The result of ``UploadStorage/createUpload(_:quotaBytes:)``.
public enum UploadCreation: Sendable, Equatable {
    case created
    /// The account is not a member of the trip (or there is no such trip).
    case notMember
    /// The account's role cannot change the trip.
    case readOnly
    /// The account's uploads would pass `limit` declared bytes.
    case quotaExceeded(limit: Int64)
}

/// The result of ``UploadStorage/confirmUpload(_:account:from:to:expiresAt:now:)``.
public enum UploadConfirmation: Sendable, Equatable {
    case confirmed
    /// The offset is no longer `from` (another PATCH confirmed first); `current` is the offset now.
    case offsetMoved(current: Int64)
    /// The upload is being removed, or gone.
    case gone
}
