/// The server's per-field merge rule for trip ops (seed 002 §3, §5): pure, so the server, the
/// simulation and the client decide alike.
///
/// An op applies when its field does not exist yet, has not changed since the op's base revision
/// (its revision is at most the base), or already holds the op's value (equal `valueHash`; for
/// `deleted`, the equal plain value). Otherwise the server keeps its value and the op is a
/// conflict carrying the server's value, hash and revision. An op whose value is already stored
/// is applied without a new revision; every other applied op takes the trip's next revision, so
/// revisions are per trip, gap-free, from 1.
///
/// Delete wins: an op on a field of a deleted item (or of a deleted trip), other than one setting
/// `deleted` itself, is a conflict on the field `deleted`. Restoring is an op setting `deleted` to
/// `false` with the delete's revision as its base, followed in the same request by the edits. An
/// op on an item of a deleted trip is rejected (`trip_deleted`) until the trip is restored.
///
/// A device deleting an item sends the item's newest revision it has seen as the delete's base
/// (its `deleted` field is at most that old, so the delete applies), and the tombstone keeps it as
/// `seenRevision`: an edit the deleter had not seen (Ana changed the time at revision 7, Ben
/// deleted the item having seen revision 6) comes back on Ana's device as an edit to restore.
///
/// Two devices, one item: Ana renames "Lunch" (title at revision 4) to "Lunch at Time Out
/// Market" while Ben, also from revision 4, moves its start to 12:30. Ana's op applies at 5; Ben's
/// op names another field, whose revision is still at most his base: it applies at 6. Had Ben
/// renamed it too, his title op (base 4, field now at 5, another hash) would be a conflict
/// showing Ana's title, and Ben chooses.
///
/// The seed's two-request gap: Ana edits the title twice offline and the ops leave in two
/// requests. The first applies at revision 5; her device moves the second's base to 5 when the
/// first is acknowledged, and 5 <= 5 applies it. Within one request, the ops come from one device
/// in the order it made them, so an op's base is taken to be at least the revision an earlier op
/// of the same request left its field at: an unfolded second op never conflicts with the first.
public enum TripMergeRule {
    /// What the rule makes of one op.
    public enum Decision: Sendable, Equatable {
        /// Store the op's value at the trip's next revision.
        case write
        /// The op's value is already stored, at `revision`: applied, nothing changes.
        case same(revision: Int)
        /// The server keeps `server`, the current state of `field` (the op's field, or
        /// `deleted` when a delete wins).
        case conflict(field: String, server: TripFieldState)
        /// The op cannot apply as sent.
        case rejected(reason: String)
    }

    /// The result of a request's ops.
    public struct Outcome: Sendable, Equatable {
        /// One result per op, in order.
        public var results: [TripOpResultDTO]
        /// The fields the ops wrote, each at its final state.
        public var written: [TripFieldKey: TripFieldState]
        /// The trip's newest revision after the ops.
        public var revision: Int
    }

    /// The reason of an op on an item of a deleted trip.
    public static let tripDeletedReason = "trip_deleted"

    /// The reason of an editor's op deleting or restoring the trip itself.
    public static let ownersOnlyReason = "only an owner can delete or restore the trip"

    /// Decides one op against its field's current state (nil: the field does not exist), the
    /// `deleted` field of its item (nil for a trip op, or an item without one) and the trip's
    /// own `deleted` field. `base` is the op's base revision, or more (see ``apply(_:to:)``).
    public static func decide(
        _ op: TripOpDTO, base: Int, current: TripFieldState?, itemTombstone: TripFieldState?,
        tripTombstone: TripFieldState?
    ) -> Decision {
        let setsDeleted = op.field == WireRoutes.deletedField
        if let trip = tripTombstone, trip.isTombstone {
            if op.item != nil { return .rejected(reason: tripDeletedReason) }
            if !setsDeleted { return .conflict(field: WireRoutes.deletedField, server: trip) }
        }
        if !setsDeleted, let item = itemTombstone, item.isTombstone {
            return .conflict(field: WireRoutes.deletedField, server: item)
        }
        guard let current else { return .write }
        if holdsValue(of: op, current) { return .same(revision: current.revision) }
        if current.revision <= base { return .write }
        return .conflict(field: op.field, server: current)
    }

    /// Applies `ops` in order to `trip`. Each op sees what the ops before it did, so a restore
    /// followed by edits works in one request.
    ///
    /// An op with a base revision on an item the trip no longer has, at or below the purge
    /// mark, edits an item that was deleted and purged: the delete wins (a conflict on `deleted`
    /// at the purge mark), as it did before the purge; restoring recreates the item.
    public static func apply(_ ops: [TripOpDTO], to trip: TripMergeState) -> Outcome {
        let before = trip.revision
        var trip = trip
        var written: [TripFieldKey: TripFieldState] = [:]
        // The revision an earlier op of this request left each field at (written or confirmed).
        var settled: [TripFieldKey: Int] = [:]
        var results: [TripOpResultDTO] = []
        for op in ops {
            let key = TripFieldKey(item: op.item, field: op.field)
            let base = max(op.baseRevision, settled[key] ?? 0)
            var itemTombstone = op.item.flatMap { _ in trip.fields[key.tombstone] }
            if let item = op.item, !trip.knownItems.contains(item), base > 0,
                base <= trip.purgedRevision
            {
                itemTombstone = TripFieldState(
                    value: "true", valueHash: nil, revision: trip.purgedRevision)
            }
            let decision =
                key == .tripTombstone && !trip.mayDeleteTrip
                ? .rejected(reason: ownersOnlyReason)
                : decide(
                    op, base: base, current: trip.fields[key], itemTombstone: itemTombstone,
                    tripTombstone: trip.fields[.tripTombstone])
            switch decision {
            case .write:
                trip.revision += 1
                let state = TripFieldState(
                    value: op.value, valueHash: op.valueHash, revision: trip.revision,
                    seenRevision: seenRevision(of: op).map {
                        seen(from: $0, item: op.item, trip: trip, before: before, written: written)
                    })
                trip.fields[key] = state
                if let item = op.item { trip.knownItems.insert(item) }
                written[key] = state
                settled[key] = trip.revision
                results.append(TripOpResultDTO(status: .applied, revision: trip.revision))
            case .same(let current):
                settled[key] = current
                results.append(TripOpResultDTO(status: .applied, revision: current))
            case .conflict(let field, let server):
                results.append(
                    TripOpResultDTO(
                        status: .conflict, conflictField: field, serverValue: server.value,
                        serverValueHash: server.valueHash, serverRevision: server.revision))
            case .rejected(let reason):
                results.append(TripOpResultDTO(status: .rejected, reason: reason))
            }
        }
        return Outcome(results: results, written: written, revision: trip.revision)
    }

    /// For an op deleting an item, or the trip: the newest revision of the item (of the whole
    /// trip) its device had seen, which it sends as the op's base (edits after it were not seen;
    /// ``apply(_:to:)`` adds what its own request wrote, ``seen(from:item:trip:before:written:)``).
    /// nil for every other op.
    public static func seenRevision(of op: TripOpDTO) -> Int? {
        op.field == WireRoutes.deletedField && op.value == "true" ? op.baseRevision : nil
    }

    /// A delete's seen revision: its base, and what its own request wrote into the item before it
    /// when nobody else had written into the item after the base (the deleter typed those, and
    /// the request's revisions follow one another). Without it every other device would offer
    /// the deleter's own last edits back ("Restore it?") for an item deleted knowingly.
    /// For the trip's delete (`item` nil): its base, and every revision its own request wrote
    /// when the trip had no revision after the base before the request (`before`).
    static func seen(
        from base: Int, item: String?, trip: TripMergeState, before: Int, written: [TripFieldKey: TripFieldState]
    ) -> Int {
        guard let item else {
            guard before <= base else { return base }
            return written.values.map(\.revision).reduce(base, max)
        }
        guard trip.itemRevisions[item] ?? 0 <= base else { return base }
        return written.filter { $0.key.item == item }.values.map(\.revision).reduce(base, max)
    }

    /// Whether `current` already holds the op's value: the plain value for `deleted`; otherwise
    /// both cleared, the same sealed text, or the same keyed hash of the plaintext.
    static func holdsValue(of op: TripOpDTO, _ current: TripFieldState) -> Bool {
        if op.field == WireRoutes.deletedField { return op.value == current.value }
        guard let value = op.value else { return current.value == nil }
        if value == current.value { return true }
        guard let hash = op.valueHash else { return false }
        return hash == current.valueHash
    }
}
