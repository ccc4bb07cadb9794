import Foundation

// Travel plans (seed 002) on the wire. Every field of a trip or an itinerary item is a value with
// its own server revision. Values are sealed on the device with the trip's key; the server stores
// them untouched and compares them only through `valueHash` (a keyed hash the device computes), so
// it can tell "the same value" without reading it. The one field the server reads is `deleted`,
// whose value is the plain text `true` or `false`: the server needs it to make a delete win and to
// keep tombstones for their retention time.

/// `PUT /v1/trips/{id}`: creates a trip owned by the caller (idempotent for the same caller).
/// 201 on creation, 200 when the caller already has it, 409 `trip_exists` when another account does.
public struct CreateTripRequestDTO: Codable, Sendable, Equatable {
    /// Base64 of the trip key sealed with the account's notes key (AES-GCM combined form).
    public var wrappedKey: String

    public init(wrappedKey: String) {
        self.wrappedKey = wrappedKey
    }
}

/// One trip the account belongs to, as the account's trips feed and the snapshot show it.
public struct TripEntryDTO: Codable, Sendable, Equatable {
    /// The device-made trip id, a lowercase UUID.
    public var id: String
    /// The trip key sealed for this account (for now with its notes key; sharing wraps it per member).
    public var wrappedKey: String
    /// `owner`, `editor` or `viewer`.
    public var role: String
    /// The trip was deleted (its `deleted` field is `true`); the entry stays for the retention time.
    public var deleted: Bool
    /// The trip's newest revision: a device whose copy is older pulls the trip's changes.
    public var revision: Int
    /// `true` when this account is no longer a member (an owner removed it, or it left): the
    /// device warns about its unsent edits and deletes its copy. Absent for a member. `role` is
    /// the role it had; `wrappedKey` is empty.
    public var removed: Bool?
    /// The epoch of the key in `wrappedKey` (absent: 1). When it is newer than the keys a device
    /// holds, the device takes the trip's key chain (`GET /v1/trips/{id}/keys`) to open older values.
    public var keyEpoch: Int?
    /// `sealed`: `wrappedKey` is sealed to this account's sharing public key (a rotation made it
    /// for this member); absent: wrapped with its notes key.
    public var keyForm: String?
    /// For an owner: a member left or was removed since the key last rotated; rotate it.
    public var rekeyDue: Bool?
    /// For a deleted trip: the newest revision of the trip its deleter had seen. A device's own
    /// acknowledged changes after it were not seen by the delete, and come back to it as the
    /// offer to restore the trip. Absent for a live trip (and from servers before stop 40).
    public var deleteSeenRevision: Int?

    public init(
        id: String, wrappedKey: String, role: String, deleted: Bool, revision: Int, removed: Bool? = nil,
        keyEpoch: Int? = nil, keyForm: String? = nil, rekeyDue: Bool? = nil, deleteSeenRevision: Int? = nil
    ) {
        self.deleteSeenRevision = deleteSeenRevision
        self.keyEpoch = keyEpoch
        self.keyForm = keyForm
        self.rekeyDue = rekeyDue
        self.id = id
        self.wrappedKey = wrappedKey
        self.role = role
        self.deleted = deleted
        self.revision = revision
        self.removed = removed
    }
}

/// `GET /v1/trips?since=CURSOR&limit=N&wait=S` → the account's trips that changed since the
/// cursor (created, changed, deleted; later joined and left), one entry per trip, in feed order.
/// `wait` holds an empty page open like the notes feed. The cursor is opaque.
public struct TripsFeedPageDTO: Codable, Sendable, Equatable {
    public var trips: [TripEntryDTO]
    public var nextCursor: String
    public var hasMore: Bool

    public init(trips: [TripEntryDTO], nextCursor: String, hasMore: Bool) {
        self.trips = trips
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// One field change: the field's current value on the server and its revision.
/// `item` is `nil` for a field of the trip itself (title, dates, notes, deleted).
public struct TripFieldDTO: Codable, Sendable, Equatable {
    public var item: String?
    public var field: String
    /// Sealed value (base64), `nil` when the field was cleared; for `deleted`, `true` or `false`.
    public var value: String?
    /// Hex HMAC-SHA256 of the plaintext under the trip's hash key; `nil` when `value` is.
    public var valueHash: String?
    /// The trip's revision at which this value was written (revisions are per trip, from 1).
    public var revision: Int
    /// Only for an item's `deleted` set to `true`: the item's newest revision the deleting device
    /// had seen. An edit at a later revision was not seen by it.
    public var seenRevision: Int?
    /// The username of the account whose request wrote this value; nil for the server's own
    /// entries (membership) and for values written before the server kept authors. A device
    /// holding a value of someone who left sends it again when a restored server forgot it.
    public var author: String?

    public init(
        item: String?, field: String, value: String?, valueHash: String?, revision: Int, seenRevision: Int? = nil,
        author: String? = nil
    ) {
        self.item = item
        self.field = field
        self.value = value
        self.valueHash = valueHash
        self.revision = revision
        self.seenRevision = seenRevision
        self.author = author
    }
}

/// `GET /v1/trips/{id}/changes?cursor=C&limit=N` → the trip's fields written after the cursor, in
/// revision order (each field once, at its newest value), or 410 `cursor_expired` when the cursor
/// is older than the trip's log keeps: fetch the snapshot. No cursor means from the beginning.
public struct TripChangesPageDTO: Codable, Sendable, Equatable {
    public var changes: [TripFieldDTO]
    public var nextCursor: String
    public var hasMore: Bool

    public init(changes: [TripFieldDTO], nextCursor: String, hasMore: Bool) {
        self.changes = changes
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// `GET /v1/trips/{id}` → every live field of the trip and its items (tombstones as `deleted`
/// fields), and the cursor that continues after it.
public struct TripSnapshotDTO: Codable, Sendable, Equatable {
    public var trip: TripEntryDTO
    public var fields: [TripFieldDTO]
    public var cursor: String

    public init(trip: TripEntryDTO, fields: [TripFieldDTO], cursor: String) {
        self.trip = trip
        self.fields = fields
        self.cursor = cursor
    }
}

/// One waiting field change. `baseRevision` is the revision of the value the person was looking
/// at, 0 for a field the device has never seen on the server. `item` is `nil` for the trip's own
/// fields; an op on an item id the server does not know creates that item.
public struct TripOpDTO: Codable, Sendable, Equatable {
    public var item: String?
    public var field: String
    public var value: String?
    public var valueHash: String?
    public var baseRevision: Int

    public init(item: String?, field: String, value: String?, valueHash: String?, baseRevision: Int) {
        self.item = item
        self.field = field
        self.value = value
        self.valueHash = valueHash
        self.baseRevision = baseRevision
    }
}

/// `POST /v1/trips/{id}/ops`. The ops apply in order, each on its own; a repeated `opId` gets its
/// first answer and changes nothing.
public struct TripOpsRequestDTO: Codable, Sendable, Equatable {
    /// Device-made, unique per request (a lowercase UUID).
    public var opId: String
    public var ops: [TripOpDTO]
    /// The check of the key the values are sealed with (``TripKeyCheckText``), for an epoch of 2
    /// or more: another check than the one the trip's current epoch was rotated with → 409
    /// `trip_key_rotated` (the device holds another key of that epoch). Absent: not checked.
    public var keyCheck: String?

    public init(opId: String, ops: [TripOpDTO], keyCheck: String? = nil) {
        self.opId = opId
        self.ops = ops
        self.keyCheck = keyCheck
    }
}

/// What became of one op.
/// - `applied`: `revision` is the field's new revision.
/// - `conflict`: the field changed since the op's base to another value; the server kept its own,
///   given in `serverValue`, `serverValueHash` and `serverRevision`. An edit to a deleted item is a
///   conflict on the field `deleted` (the delete wins; restoring is an op setting it to `false`).
/// - `rejected`: the op can never apply as sent (`reason` says why, for example a viewer's op).
public struct TripOpResultDTO: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case applied, conflict, rejected }

    public var status: Status
    public var revision: Int?
    public var conflictField: String?
    public var serverValue: String?
    public var serverValueHash: String?
    public var serverRevision: Int?
    public var reason: String?

    public init(
        status: Status, revision: Int? = nil, conflictField: String? = nil,
        serverValue: String? = nil, serverValueHash: String? = nil, serverRevision: Int? = nil,
        reason: String? = nil
    ) {
        self.status = status
        self.revision = revision
        self.conflictField = conflictField
        self.serverValue = serverValue
        self.serverValueHash = serverValueHash
        self.serverRevision = serverRevision
        self.reason = reason
    }
}

/// The answer to `POST /v1/trips/{id}/ops`: one result per op, in order, and the trip's revision
/// after the request.
public struct TripOpsResponseDTO: Codable, Sendable, Equatable {
    public var results: [TripOpResultDTO]
    public var revision: Int
    /// When the request wrote something: the trip's position after it, as opaque cursor text. A
    /// device sends it as `known=` on its next changes pulls, until one finishes: a server
    /// restored to before the write answers 400 `invalid_cursor`, and the device resyncs from the
    /// snapshot and sends its forgotten writes again.
    public var position: String?

    public init(results: [TripOpResultDTO], revision: Int, position: String? = nil) {
        self.results = results
        self.revision = revision
        self.position = position
    }
}
