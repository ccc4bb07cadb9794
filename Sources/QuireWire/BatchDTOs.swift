import Foundation

/// `POST /v1/notes/batch`: several pending changes in one request, applied in order in one
/// transaction. Each item follows exactly the rules of its single route (`PUT /v1/notes/{id}` or
/// `DELETE /v1/notes/{id}?baseVersion=`), idempotency key included: a change sent in a batch and
/// resent alone (or the other way round) gets its first answer.
public struct BatchRequestDTO: Codable, Sendable, Equatable {
    public var changes: [BatchChangeDTO]

    public init(changes: [BatchChangeDTO]) {
        self.changes = changes
    }
}

public struct BatchChangeDTO: Codable, Sendable, Equatable {
    /// `put` or `delete`.
    public var op: String
    public var id: String
    public var idempotencyKey: String
    /// For a put.
    public var payload: String?
    /// For a put: nil for a new note. For a delete: required.
    public var baseVersion: Int?
    /// The base version's `versionTag`, when the device has it.
    public var baseVersionTag: String?

    public init(
        op: String, id: String, idempotencyKey: String, payload: String?, baseVersion: Int?,
        baseVersionTag: String? = nil
    ) {
        self.baseVersionTag = baseVersionTag
        self.op = op
        self.id = id
        self.idempotencyKey = idempotencyKey
        self.payload = payload
        self.baseVersion = baseVersion
    }
}

/// The answer to each change, in request order: the status and fields its single route would
/// have answered (200: `version`, `cursor`, `previousCursor`; 204: none; 409: `note`; 4xx: `error`).
public struct BatchResultDTO: Codable, Sendable, Equatable {
    public var status: Int
    public var version: Int?
    public var cursor: String?
    public var previousCursor: String?
    public var note: NoteChangeDTO?
    public var error: ErrorResponseDTO.Detail?
    /// For a 200: the new version's tag.
    public var versionTag: String?
    /// For a 409: see ``ConflictResponseDTO/baseKnown``.
    public var baseKnown: Bool?
    /// True when this is the recorded answer to an earlier send of the same change (the single
    /// routes say so with `Idempotent-Replayed: true`): its version may be older than the note's.
    public var replayed: Bool?

    public init(
        status: Int, version: Int? = nil, cursor: String? = nil, previousCursor: String? = nil,
        note: NoteChangeDTO? = nil, error: ErrorResponseDTO.Detail? = nil,
        versionTag: String? = nil
    ) {
        self.versionTag = versionTag
        self.status = status
        self.version = version
        self.cursor = cursor
        self.previousCursor = previousCursor
        self.note = note
        self.error = error
    }
}

public struct BatchResponseDTO: Codable, Sendable, Equatable {
    public var results: [BatchResultDTO]

    public init(results: [BatchResultDTO]) {
        self.results = results
    }
}
