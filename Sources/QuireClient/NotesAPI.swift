import Foundation
import QuireDomain
import QuireWire

/// Where an accepted write sits in the account's feed: `previous` just before it, `next` after it.
public struct FeedStep: Hashable, Sendable {
    public var previous: Cursor
    public var next: Cursor

    public init(previous: Cursor, next: Cursor) {
        self.previous = previous
        self.next = next
    }
}

/// How the server answered a write.
public enum WriteOutcome: Equatable, Sendable {
    /// Applied (or applied before: a resend gets the first answer). `version` is nil for a delete;
    /// `feed` says where a put landed in the feed, when the server says so.
    /// `tag` is the new version's tag, when the server sends one.
    case accepted(version: Int?, feed: FeedStep? = nil, tag: String? = nil, replayed: Bool = false)
    /// The base version is stale: the server's current copy, or its tombstone. `baseKnown`:
    /// whether the base is a version of the server's history (nil: the server cannot tell);
    /// false after a restore forgot it, when the base text is no ancestor of the copy.
    case conflict(NoteChangeDTO, baseKnown: Bool? = nil)
}

/// A request that did not get a usable answer, by what the engine should do about it.
public struct NotesAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Timeouts, connection errors, 5xx, 429: try again later, unchanged.
        case transient
        /// No connection to the server at all (refused, no route, no network): try again later.
        case unreachable
        /// 401: the token is bad or expired.
        case unauthorized
        /// 410 `cursor_expired`: resync from the beginning.
        case cursorExpired
        /// 400/403/404/413/422: the server will never take this request.
        case refused
        /// The reply could not be understood.
        case invalidResponse
    }

    public var kind: Kind
    public var status: Int?
    /// The server's error code, when it sent one.
    public var code: String?
    public var message: String
    /// From `Retry-After`, in seconds.
    public var retryAfter: Double?

    public init(
        kind: Kind, status: Int? = nil, code: String? = nil, message: String,
        retryAfter: Double? = nil
    ) {
        self.kind = kind
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String {
        var text = message
        if let status { text += " (HTTP \(status)" + (code.map { ", \($0)" } ?? "") + ")" }
        return text
    }
}

/// The three note endpoints (seed 000 card 8). Returns DTOs; throws ``NotesAPIError``.
/// Cancelling the caller cancels the request.
public protocol NotesAPI: Sendable {
    /// One page of the feed after `cursor` (nil: every live note). `known`, cursors of writes this
    /// device had acknowledged, are checked against the server's history (`invalid_cursor` when
    /// it forgot one of those writes). `wait` > 0 holds the request until a change
    /// arrives or that many seconds pass. `omittingOwnPayloads`: in a full listing too, this
    /// session's own writes come without payloads, marked `ownWrite` (incremental pages always
    /// leave them out).
    func changes(since cursor: Cursor?, known: [Cursor], limit: Int, wait: Int, omittingOwnPayloads: Bool)
        async throws -> ChangesPageDTO
    /// Creates or updates a note. A repeated change id gets the first answer. `baseVersionTag`
    /// is the tag the server sent with `baseVersion`, when known.
    func put(
        _ id: NoteID, payload: String, baseVersion: Int?, baseVersionTag: String?, change: ChangeID
    ) async throws -> WriteOutcome
    /// Deletes a note. Deleting a note the server already deleted is accepted.
    func delete(_ id: NoteID, baseVersion: Int, baseVersionTag: String?, change: ChangeID)
        async throws -> WriteOutcome
    /// Sends several changes in one request, applied in one transaction, each with its single
    /// route's rules. One answer per change, in order: its outcome, or why the server refused it.
    /// Throws (``NotesAPIError``) when the batch as a whole got no usable answer.
    func batch(_ changes: [BatchChangeDTO]) async throws -> [Result<WriteOutcome, NotesAPIError>]
}

extension NotesAPI {
    /// A page of the feed with every payload a full listing carries.
    public func changes(since cursor: Cursor?, known: [Cursor], limit: Int, wait: Int) async throws
        -> ChangesPageDTO
    {
        try await changes(since: cursor, known: known, limit: limit, wait: wait, omittingOwnPayloads: false)
    }

    /// A page of the feed without a write position to check (tools, benchmarks, tests).
    public func changes(since cursor: Cursor?, limit: Int, wait: Int) async throws -> ChangesPageDTO {
        try await changes(since: cursor, known: [], limit: limit, wait: wait)
    }

    /// A put on a base whose tag is not known (tools and tests that write on their own).
    public func put(_ id: NoteID, payload: String, baseVersion: Int?, change: ChangeID)
        async throws -> WriteOutcome
    {
        try await put(id, payload: payload, baseVersion: baseVersion, baseVersionTag: nil, change: change)
    }
}
