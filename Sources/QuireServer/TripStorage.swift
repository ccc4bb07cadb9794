import Foundation
import QuireWire

/// Where the server keeps trips (seed 002): members, field values, revisions, and the op
/// requests already answered.
///
/// `SQLiteServerStorage` implements it; a PostgreSQL store conforms to the same protocol. Every
/// method is one transaction. A trip's fields are decided by ``TripMergeRule``; each request that
/// changes a value takes the next number of the server-wide sequence (as a note write does) and
/// moves every member's trips feed to it. A caller that is not a member of the trip is answered
/// exactly as if the trip did not exist.
public protocol TripStorage: Sendable {
    /// Creates `trip` with `account` as its owner holding `wrappedKey`, unless it exists. A trip
    /// the account is already a member of is `.alreadyMember` with its entry (the stored key,
    /// not `wrappedKey`); one the account is not a member of is `.takenByAnother`; a new trip past
    /// the trips the account may own (`quota`) is `.quotaExceeded`.
    func createTrip(_ trip: String, account: AccountID, wrappedKey: String, quota: TripQuota, now: Date)
        async throws -> TripCreation

    /// Applies one ops request of `account` to `trip` with ``TripMergeRule``, in one transaction.
    /// `record` encodes the answer, given the trip's position after the request (nil when it
    /// wrote nothing).
    ///
    /// In order: a caller who is not a member gets `.notMember`, a viewer `.readOnly`; an `opId`
    /// the account already sent to this trip returns the recorded answer (`.replayed`) when
    /// `fingerprint` matches, else `.opIdReused`. Ops whose values would grow the trip past
    /// `quota` are `.quotaExceeded`, nothing applied or recorded. Otherwise the ops are applied,
    /// and `record`'s encoding of the answer is stored with the op id in the same transaction.
    func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        quota: TripQuota, now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) async throws -> TripOpsResult

    /// Up to `limit` of the trip's fields written after `after` (nil: from the beginning), in
    /// revision order, each once at its newest value, read in one transaction.
    ///
    /// `.cursorAhead` when `after` is past the trip's revision or the server's counter;
    /// `.cursorFromAnotherHistory` when its mark is not the one stored for its number;
    /// `.cursorExpired` when it is below the trip's purge mark, in that order. Each of `known`,
    /// the positions a device's acknowledged requests left the trip at that no pull has checked
    /// yet, is checked the same way (but never expires): one this history does not have means a
    /// restore forgot that write.
    func tripChanges(
        _ trip: String, account: AccountID, after: TripPosition?, known: [TripPosition], limit: Int
    ) async throws -> TripChangesResult

    /// Whether this history holds every one of `positions` (a device's cursor and acknowledged
    /// positions: the history its bases come from), checked as ``tripChanges(_:account:after:known:limit:)``
    /// checks them; nil when the account is not a member.
    func tripHistoryHolds(_ trip: String, account: AccountID, positions: [TripPosition]) async throws -> Bool?

    /// Every stored field of the trip (tombstones included) and the position that continues
    /// after them, or nil when the account is not a member.
    func tripSnapshot(_ trip: String, account: AccountID) async throws -> TripSnapshot?

    /// Up to `limit` of the account's trips whose feed position is after `since` (nil: all of
    /// them), each once at its newest state, in feed order. `.cursorAhead` and
    /// `.cursorFromAnotherHistory` as for the notes feed.
    func tripsFeed(account: AccountID, since: FeedPosition?, limit: Int) async throws
        -> TripsFeedResult

    /// Deletes every field of the oldest `limit` items whose `deleted` became `true` before
    /// `cutoff` (a trip deleted before it keeps only its `deleted` field), raising each affected
    /// trip's purge mark to the newest revision deleted, so older cursors get `.cursorExpired`;
    /// also forgets up to `limit` op requests answered before `cutoff`. One transaction; call it
    /// again while `mayHaveMore`.
    func purgeTripTombstones(olderThan cutoff: Date, limit: Int) async throws -> TripPurgeBatch
}

/// What one call of ``TripStorage/purgeTripTombstones(olderThan:limit:)`` deleted.
public struct TripPurgeBatch: Sendable, Equatable {
    /// Items (and trips) purged.
    public var purged: Int
    public var opRequests: Int
    /// The batch was full: more may be due.
    public var mayHaveMore: Bool

    public init(purged: Int, opRequests: Int, mayHaveMore: Bool) {
        self.purged = purged
        self.opRequests = opRequests
        self.mayHaveMore = mayHaveMore
    }
}

extension TripStorage {
    /// Purges every tombstone due, `limit` at a time. Returns the items (and trips) purged, and
    /// the largest batch.
    public func purgeAllTripTombstones(olderThan cutoff: Date, limit: Int = 500) async throws
        -> (purged: Int, batches: [TripPurgeBatch])
    {
        var batches: [TripPurgeBatch] = []
        repeat {
            try Task.checkCancellation()
            batches.append(try await purgeTripTombstones(olderThan: cutoff, limit: limit))
            await Task.yield()
        } while batches.last?.mayHaveMore == true
        return (batches.reduce(0) { $0 + $1.purged }, batches)
    }
}

/// The result of ``TripStorage/createTrip(_:account:wrappedKey:now:)``.
public enum TripCreation: Sendable, Equatable {
    case created(TripEntryDTO)
    case alreadyMember(TripEntryDTO)
    case takenByAnother
    case quotaExceeded(TripQuota.Limit)
}

extension TripStorage {
    /// ``createTrip(_:account:wrappedKey:quota:now:)`` with no limit (tools and tests).
    public func createTrip(_ trip: String, account: AccountID, wrappedKey: String, now: Date)
        async throws -> TripCreation
    {
        try await createTrip(trip, account: account, wrappedKey: wrappedKey, quota: .unlimited, now: now)
    }

    /// ``applyTripOps(_:trip:account:fingerprint:quota:now:record:)`` with no limit (tools and tests).
    public func applyTripOps(
        _ request: TripOpsRequestDTO, trip: String, account: AccountID, fingerprint: String,
        now: Date, record: @Sendable (TripOpsResponseDTO, TripPosition?) -> Data
    ) async throws -> TripOpsResult {
        try await applyTripOps(
            request, trip: trip, account: account, fingerprint: fingerprint, quota: .unlimited, now: now,
            record: record)
    }
}

extension TripStorage {
    /// ``tripChanges(_:account:after:known:limit:)`` with no position to check.
    public func tripChanges(_ trip: String, account: AccountID, after: TripPosition?, limit: Int)
        async throws -> TripChangesResult
    {
        try await tripChanges(trip, account: account, after: after, known: [], limit: limit)
    }
}

/// The result of ``TripStorage/applyTripOps(_:trip:account:fingerprint:now:record:)``.
public enum TripOpsResult: Sendable, Equatable {
    /// The ops were decided; `body` is the recorded answer. `changed` lists the members whose
    /// trips feed moved (empty when no value changed).
    case applied(body: Data, changed: [AccountID])
    /// The op id was answered before: its first answer, byte for byte.
    case replayed(body: Data)
    /// The op id was answered before for a different request.
    case opIdReused
    /// The account is not a member of the trip (or there is no such trip).
    case notMember
    /// The account's role cannot change the trip.
    case readOnly
    /// A value is sealed with another key than the trip's current one (epoch `current`):
    /// nothing was applied (issue 15: a key rotates when a member leaves).
    case keyRotated(current: Int)
    /// The values would pass the trip's bytes (``TripQuota``): nothing was applied or recorded.
    case quotaExceeded(TripQuota.Limit)
}

/// The result of ``TripStorage/tripChanges(_:account:after:known:limit:)``.
public enum TripChangesResult: Sendable, Equatable {
    /// `fields` in revision order; `next` continues after them (the trip's newest position when
    /// `hasMore` is false).
    case page(fields: [TripFieldDTO], hasMore: Bool, next: TripPosition)
    case notMember
    case cursorAhead
    case cursorFromAnotherHistory
    case cursorExpired
}

/// A whole trip as ``TripStorage/tripSnapshot(_:account:)`` reads it.
public struct TripSnapshot: Sendable, Equatable {
    public var entry: TripEntryDTO
    public var fields: [TripFieldDTO]
    public var position: TripPosition

    public init(entry: TripEntryDTO, fields: [TripFieldDTO], position: TripPosition) {
        self.entry = entry
        self.fields = fields
        self.position = position
    }
}

/// The result of ``TripStorage/tripsFeed(account:since:limit:)``.
public enum TripsFeedResult: Sendable, Equatable {
    /// `trips` in feed order; `next` is the last one's position, or the account's newest one
    /// when `hasMore` is false (never before `since`).
    case page(trips: [TripEntryDTO], hasMore: Bool, next: FeedPosition)
    case cursorAhead
    case cursorFromAnotherHistory
}
