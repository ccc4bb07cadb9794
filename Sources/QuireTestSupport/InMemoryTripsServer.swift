import Foundation
import QuireClient
import QuireTrips
import QuireWire

/// The trips server in memory: the twin the device's trips code is tested against without a
/// database. Its ops go through the real server's rule, ``TripMergeRule`` (the delete wins, an
/// op applies on an unchanged field or an equal value, otherwise a conflict with the server's
/// value; an item's delete remembers what it had seen), over the whole trip; a repeated `opId`
/// gets its first answer.
///
/// Changes are the fields written after the cursor, in revision order; a cursor older than the
/// trip's purge mark is 410. Each account sees only the trips it created (404 otherwise).
/// Everything it was sent is kept in ``received`` so tests can check it never saw plaintext.
public actor InMemoryTripsServer {
    /// A field of the trip (`item` nil) or of one of its items.
    typealias FieldKey = TripFieldKey
    /// A field's value, its keyed hash, its revision and (an item tombstone's) seen revision.
    typealias StoredField = QuireWire.TripFieldState

    struct Trip {
        var owner: String
        var wrappedKey: String
        var revision = 0
        /// Cursors below this revision are expired (410).
        var purgedThrough = 0
        var fields: [FieldKey: StoredField] = [:]
        var answers: [String: TripOpsResponseDTO] = [:]
        /// The trip's place in its owner's trips feed.
        var feedPosition = 0
    }

    /// One op the server applied with a new revision: the log tests read to prove each op
    /// applied at most once.
    public struct AppliedOp: Hashable, Sendable {
        public var trip: String
        public var opID: String
        public var index: Int
        public var item: String?
        public var field: String
        public var revision: Int
    }

    private var trips: [String: Trip] = [:]
    private var feedPosition = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var beforeOps: (@Sendable (String, TripOpsRequestDTO) async -> Void)?
    /// Every op the server applied with a new revision, in order.
    public private(set) var applied: [AppliedOp] = []
    /// Every string it was sent: wrapped keys, sealed values, hashes.
    public private(set) var received: [String] = []
    /// How many ops requests it answered (repeats included).
    public private(set) var opsRequests = 0

    public init() {}

    // MARK: - Test hooks

    /// Runs `hook` before each ops request is applied (with the trip id): a test edits on a device
    /// while its request is on the way.
    public func onOps(_ hook: (@Sendable (String, TripOpsRequestDTO) async -> Void)?) {
        beforeOps = hook
    }

    /// Purges the trip's log up to its current revision: every cursor issued before now is 410.
    public func expireCursors(of trip: TripID) {
        guard var stored = trips[trip.description] else { return }
        stored.purgedThrough = stored.revision
        trips[trip.description] = stored
    }

    /// The server's value of a field (sealed, as stored), its hash and revision.
    public func field(_ trip: TripID, item: ItemID?, _ field: String) -> TripFieldDTO? {
        guard let stored = trips[trip.description]?.fields[FieldKey(item: item?.description, field: field)] else {
            return nil
        }
        return TripFieldDTO(
            item: item?.description, field: field, value: stored.value, valueHash: stored.valueHash,
            revision: stored.revision, seenRevision: stored.seenRevision)
    }

    /// The trip's current revision (0 for an unknown trip).
    public func revision(of trip: TripID) -> Int { trips[trip.description]?.revision ?? 0 }

    // MARK: - The routes, for one account

    func tripsFeed(account: String, since cursor: String?, limit: Int, wait: Int) async throws -> TripsFeedPageDTO {
        let after = try Self.position(cursor, prefix: "f")
        if wait > 0, page(account: account, after: after, limit: limit).trips.isEmpty {
            await waitForChange(seconds: wait)
        }
        return page(account: account, after: after, limit: limit)
    }

    /// 201 for a new trip, 200 for the caller's own again; 409 for another account's.
    func createTrip(account: String, id: String, wrappedKey: String) throws -> Int {
        received.append(wrappedKey)
        if let existing = trips[id] {
            guard existing.owner == account else {
                throw NotesAPIError(kind: .refused, status: 409, code: "trip_exists", message: "That trip id is taken.")
            }
            return 200
        }
        var trip = Trip(owner: account, wrappedKey: wrappedKey)
        feedPosition += 1
        trip.feedPosition = feedPosition
        trips[id] = trip
        wakeWaiters()
        return 201
    }

    func snapshot(account: String, id: String) throws -> TripSnapshotDTO {
        let trip = try owned(id, by: account)
        let fields = trip.fields.sorted { $0.value.revision < $1.value.revision }.map { key, stored in
            TripFieldDTO(
                item: key.item, field: key.field, value: stored.value, valueHash: stored.valueHash,
                revision: stored.revision, seenRevision: stored.seenRevision)
        }
        return TripSnapshotDTO(trip: entry(id, trip), fields: fields, cursor: "r\(trip.revision)")
    }

    func changes(account: String, id: String, cursor: String?, limit: Int) throws -> TripChangesPageDTO {
        let trip = try owned(id, by: account)
        let after = try Self.position(cursor, prefix: "r")
        guard after >= trip.purgedThrough else {
            throw NotesAPIError(
                kind: .cursorExpired, status: 410, code: "cursor_expired",
                message: "The trip's log no longer reaches back to that cursor; fetch the snapshot.")
        }
        let newer = trip.fields.filter { $0.value.revision > after }.sorted { $0.value.revision < $1.value.revision }
        let page = newer.prefix(max(1, min(limit, WireRoutes.maxPageLimit)))
        let changes = page.map { key, stored in
            TripFieldDTO(
                item: key.item, field: key.field, value: stored.value, valueHash: stored.valueHash,
                revision: stored.revision, seenRevision: stored.seenRevision)
        }
        return TripChangesPageDTO(
            changes: changes, nextCursor: "r\(changes.last?.revision ?? after)", hasMore: newer.count > page.count)
    }

    func ops(account: String, id: String, request: TripOpsRequestDTO) async throws -> TripOpsResponseDTO {
        if let beforeOps { await beforeOps(id, request) }
        var trip = try owned(id, by: account)
        opsRequests += 1
        if let answer = trip.answers[request.opId] { return answer }
        guard request.ops.count <= WireRoutes.maxTripOps else {
            throw NotesAPIError(
                kind: .refused, status: 413, code: "too_many_ops", message: "At most \(WireRoutes.maxTripOps) ops.")
        }
        let before = trip.revision
        for op in request.ops { received.append(contentsOf: [op.value, op.valueHash].compactMap { $0 }) }
        // What the real server refuses before its rule; every other op goes through the rule the
        // real server runs (TripMergeRule), with all of the trip's fields as its state.
        let refusals = request.ops.map(Self.refusal)
        let valid = zip(request.ops, refusals).filter { $0.1 == nil }.map(\.0)
        let outcome = TripMergeRule.apply(valid, to: Self.mergeState(of: trip))
        var decided = outcome.results[...]
        let results = refusals.map { refusal in refusal ?? decided.removeFirst() }
        for (key, state) in outcome.written { trip.fields[key] = state }
        trip.revision = outcome.revision
        for (index, (op, result)) in zip(request.ops, results).enumerated() {
            if result.status == .applied, let revision = result.revision, revision > before,
                trip.fields[FieldKey(item: op.item, field: op.field)]?.revision == revision
            {
                applied.append(
                    AppliedOp(
                        trip: id, opID: request.opId, index: index, item: op.item, field: op.field, revision: revision))
            }
        }
        let answer = TripOpsResponseDTO(results: results, revision: trip.revision)
        trip.answers[request.opId] = answer
        if trip.revision > before {
            feedPosition += 1
            trip.feedPosition = feedPosition
        }
        trips[id] = trip
        wakeWaiters()
        return answer
    }

    // MARK: - The rule

    /// The server's answer to an op it refuses before the merge rule, or nil.
    static func refusal(_ op: TripOpDTO) -> TripOpResultDTO? {
        if op.field == WireRoutes.deletedField, op.value != "true", op.value != "false" {
            return TripOpResultDTO(status: .rejected, reason: "deleted is true or false")
        }
        if (op.value?.utf8.count ?? 0) > WireRoutes.maxTripValueBytes {
            return TripOpResultDTO(status: .rejected, reason: "value too large")
        }
        return nil
    }

    /// The whole trip as the rule sees it: every field, the items that have one, and the newest
    /// revision of each item.
    static func mergeState(of trip: Trip) -> TripMergeState {
        var itemRevisions: [String: Int] = [:]
        for (key, state) in trip.fields {
            guard let item = key.item else { continue }
            itemRevisions[item] = max(itemRevisions[item] ?? 0, state.revision)
        }
        return TripMergeState(
            fields: trip.fields, knownItems: Set(itemRevisions.keys), itemRevisions: itemRevisions,
            revision: trip.revision)
    }

    // MARK: - Helpers

    private func owned(_ id: String, by account: String) throws -> Trip {
        guard let trip = trips[id], trip.owner == account else {
            throw NotesAPIError(kind: .refused, status: 404, code: "not_found", message: "No such trip.")
        }
        return trip
    }

    private func entry(_ id: String, _ trip: Trip) -> TripEntryDTO {
        let tombstone = trip.fields[FieldKey(item: nil, field: WireRoutes.deletedField)]
        let deleted = tombstone?.value == "true"
        return TripEntryDTO(
            id: id, wrappedKey: trip.wrappedKey, role: "owner", deleted: deleted, revision: trip.revision,
            deleteSeenRevision: deleted ? tombstone?.seenRevision : nil)
    }

    private func page(account: String, after: Int, limit: Int) -> TripsFeedPageDTO {
        let newer = trips.filter { $0.value.owner == account && $0.value.feedPosition > after }
            .sorted { $0.value.feedPosition < $1.value.feedPosition }
        let page = newer.prefix(max(1, min(limit, WireRoutes.maxPageLimit)))
        return TripsFeedPageDTO(
            trips: page.map { entry($0.key, $0.value) }, nextCursor: "f\(page.last?.value.feedPosition ?? after)",
            hasMore: newer.count > page.count)
    }

    private static func position(_ cursor: String?, prefix: Character) throws -> Int {
        guard let cursor else { return 0 }
        guard cursor.first == prefix, let value = Int(cursor.dropFirst()) else {
            throw NotesAPIError(kind: .refused, status: 400, code: "invalid_cursor", message: "Not a cursor.")
        }
        return value
    }

    /// Holds a long-poll until something changes, `seconds` pass or the caller is cancelled
    /// (every held poll then answers; an empty page is a poll's normal answer).
    private func waitForChange(seconds: Int) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .seconds(seconds))
            await self?.wakeWaiters()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiters.append($0) }
        } onCancel: {
            Task { [weak self] in await self?.wakeWaiters() }
        }
        timer.cancel()
    }

    private func wakeWaiters() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }
}
