import Foundation
import QuireTrips
import QuireWire

// MARK: - A trip deleted on another device while this one changed it

/// The server answers an op on an item of a deleted trip with a refusal (`trip_deleted`), and one
/// on the trip's own fields with a conflict on `deleted` (kept as the trip's delete conflict), and
/// the trips feed marks the trip deleted, which hides it. The changes this device had made of it
/// stay (in the outbox, and in the trip's conflicts), and together they are one offer, "This trip
/// was deleted. Restore it?"
/// (seed 002 §5): an owner restores the trip and they are sent; letting it go drops them. Until
/// then they are not sent again, nor counted as refused. When an owner on another device restores
/// the trip, the feed shows it again and the changes its delete refused go out on their own.
extension TripsDatabase {
    /// This device's changes of a trip the feed shows deleted, other than its own delete of it:
    /// unsent, refused, or frozen in a request.
    private static let changesOfDeletedTrips = """
        FROM outbox o JOIN trips t ON t.id = o.trip_id
        WHERE t.deleted = 1 AND NOT (o.item_id = '' AND o.field = 'deleted')
        """

    /// One offer for each deleted trip this device holds changes or conflicts of (`item` nil,
    /// `field` `.deleted`, ``TripFieldConflict/changesOfDeletedTrip`` how many), of `trip` alone
    /// when given.
    func deletedTripOffers(in trip: TripID? = nil) throws -> [TripFieldConflict] {
        try connection.query(
            """
            SELECT id, feed_revision, held FROM (
                SELECT t.id, t.feed_revision, t.created_at,
                    (SELECT COUNT(*) FROM outbox o
                     WHERE o.trip_id = t.id AND NOT (o.item_id = '' AND o.field = 'deleted'))
                    + (SELECT COUNT(*) FROM conflicts c WHERE c.trip_id = t.id) AS held
                FROM trips t WHERE t.deleted = 1
            )
            WHERE held > 0
            """ + (trip == nil ? "" : " AND id = ?") + " ORDER BY created_at, id",
            bindings: trip.map { [$0.description] } ?? []
        ) { row in
            TripID(row.text(0)).map {
                TripFieldConflict(
                    trip: $0, item: nil, field: .deleted, mine: TripFieldRules.restoredValue,
                    theirs: TripFieldRules.deletedValue, theirRevision: row.int(1), changesOfDeletedTrip: row.int(2))
            }
        }.compactMap { $0 }
    }

    /// The values a deleted trip's offer holds (what restoring it brings back): its changes,
    /// oldest first, then each of its conflicts' own values; the item (nil for the trip's own
    /// field), the field's name and the value.
    public func changesOfDeletedTrip(_ trip: TripID) throws -> [(item: ItemID?, field: String, value: String?)] {
        let changes = try connection.query(
            "SELECT o.item_id, o.field, o.value " + Self.changesOfDeletedTrips + " AND t.id = ? ORDER BY o.seq",
            trip.description
        ) { (item: ItemID($0.text(0)), field: $0.text(1), value: $0.optionalText(2)) }
        let conflicts = try connection.query(
            Self.conflictSelect + " WHERE trip_id = ? ORDER BY created_at, item_id, field",
            bindings: [trip.description], map: Self.conflict
        ).compactMap { $0 }
        return changes
            + conflicts.flatMap { conflict -> [(item: ItemID?, field: String, value: String?)] in
                guard let edited = conflict.editedValues else {
                    return [(conflict.item, conflict.field.rawValue, conflict.mine)]
                }
                return edited.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { (conflict.item, $0.key.rawValue, $0.value) }
            }
    }

    /// The number of this device's changes waiting in deleted trips (counted by the offers, not
    /// as refused or pending).
    func changesOfDeletedTripsCount() throws -> (refused: Int, waiting: Int) {
        try connection.queryFirst(
            "SELECT COALESCE(SUM(o.rejected = 1), 0), COALESCE(SUM(o.rejected = 0), 0) "
                + Self.changesOfDeletedTrips
        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
    }

    /// The trips this device holds that are deleted (here or on another device), which
    /// ``restoreTrip(_:)`` can bring back.
    public func deletedTripIDs() throws -> [TripID] {
        try connection.query("SELECT id FROM trips WHERE deleted = 1 ORDER BY created_at, id") { TripID($0.text(0)) }
            .compactMap { $0 }
    }

    /// The items of live trips that are deleted (their newest value of `deleted`, sent or not, is
    /// `true`), which ``restoreItem(_:)`` can bring back.
    public func deletedItemIDs() throws -> [ItemID] {
        try connection.query(
            """
            SELECT i.id FROM items i JOIN trips t ON t.id = i.trip_id AND t.deleted = 0
            WHERE COALESCE(
                (SELECT o.value FROM outbox o
                 WHERE o.trip_id = i.trip_id AND o.item_id = i.id AND o.field = 'deleted' AND o.rejected = 0
                 ORDER BY o.seq DESC LIMIT 1),
                (SELECT f.value FROM fields f
                 WHERE f.trip_id = i.trip_id AND f.item_id = i.id AND f.field = 'deleted')) = ?
            ORDER BY i.id
            """, TripFieldRules.deletedValue
        ) { ItemID($0.text(0)) }.compactMap { $0 }
    }

    /// The title a deleted trip had on this device (its offer's name); nil for a trip it never had.
    public func deletedTripTitle(_ trip: TripID) throws -> String? {
        guard try connection.queryFirst("SELECT 1 FROM trips WHERE id = ?", trip.description, map: { _ in true }) != nil
        else { return nil }
        return try readFieldStates(trip, item: nil, tripOnly: true)[""]?[.title]?.value ?? ""
    }

    /// Restores a deleted trip, in one transaction: an op setting the trip's `deleted` to `false`
    /// on the newest revision the feed showed (the delete's or later), then every change this
    /// device held of the trip, in their order, sent after it. The trip shows again at once.
    /// Restoring a trip this device deleted itself works too (an undo).
    /// - Throws: ``TripsDatabaseError`` `.unknownTrip` (not on this device, or not deleted),
    ///   `.ownersOnly` for an editor or viewer.
    public func restoreTrip(_ trip: TripID) throws {
        try write {
            guard
                let (role, feedRevision) = try connection.queryFirst(
                    "SELECT role, feed_revision FROM trips WHERE id = ? AND deleted = 1", trip.description,
                    map: { ($0.text(0), $0.int(1)) })
            else { throw TripsDatabaseError(.unknownTrip, "no deleted trip \(trip) on this device") }
            guard role == TripMemberRole.owner.rawValue else {
                throw TripsDatabaseError(
                    .ownersOnly, "only an owner can restore the trip (this account is \(role) of it)")
            }
            let held = try connection.query(
                TripsStoredOp.select + " WHERE trip_id = ? AND NOT (item_id = '' AND field = 'deleted') ORDER BY seq",
                bindings: [trip.description], map: TripsStoredOp.read)
            try connection.run("DELETE FROM outbox WHERE trip_id = ?", trip.description)
            let confirmed = try confirmedValue(trip: trip, item: "", field: TripField.deleted.rawValue)
            try insertOp(
                trip: trip, item: "", field: TripField.deleted.rawValue, value: TripFieldRules.restoredValue,
                baseRevision: max(feedRevision, confirmed?.revision ?? 0),
                baseValue: confirmed?.value ?? TripFieldRules.deletedValue)
            for op in held {
                try insertOp(
                    trip: trip, item: op.item.storageKey, field: op.field, value: op.value,
                    baseRevision: op.baseRevision, baseValue: op.baseValue)
            }
            try resendTripFieldsTheDeleteMet(trip)
            try connection.run("UPDATE trips SET deleted = 0 WHERE id = ?", trip.description)
        }
    }

    /// The trip's own fields whose change met its delete (a conflict on the trip's `deleted`):
    /// queued again, each on what it started from, once the trip is back. Inside the caller's
    /// transaction.
    private func resendTripFieldsTheDeleteMet(_ trip: TripID) throws {
        guard let conflict = try storedConflict(trip: trip, item: nil, field: .deleted), let edits = conflict.edits
        else { return }
        try deleteConflict(trip: trip, item: "", field: TripField.deleted.rawValue)
        for (field, edit) in edits.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try queueChange(trip: trip, item: nil, field: field, value: edit.value, startedFrom: edit.startedFrom)
        }
    }

    /// The person let a deleted trip go: the changes of it this device held, and the conflicts
    /// waiting in it, are dropped. Inside the caller's transaction.
    func letDeletedTripGo(_ trip: TripID) throws {
        try connection.run(
            "DELETE FROM outbox WHERE trip_id = ? AND NOT (item_id = '' AND field = 'deleted')", trip.description)
        try connection.run("DELETE FROM conflicts WHERE trip_id = ?", trip.description)
    }

    /// The feed shows a trip deleted that this device held live, its deleter having seen the
    /// trip up to revision `seen`: this device's own acknowledged changes after it (the delete
    /// did not see them) are held again as changes of the trip, so its offer shows them and a
    /// restore sends them (the server holds them still: they apply as they are). Inside the
    /// caller's transaction.
    func holdChangesTheDeleteDidNotSee(_ trip: TripID, seen: Int) throws {
        let unseen = try connection.query(
            """
            SELECT f.item_id, f.field, f.value, f.revision FROM fields f
            WHERE f.trip_id = ? AND f.mine = 1 AND f.revision > ? AND f.field != 'deleted'
              AND NOT EXISTS (
                SELECT 1 FROM outbox o WHERE o.trip_id = f.trip_id AND o.item_id = f.item_id AND o.field = f.field)
            ORDER BY f.revision
            """, trip.description, seen
        ) { (item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
        for change in unseen {
            try insertOp(
                trip: trip, item: change.item, field: change.field, value: change.value,
                baseRevision: change.revision, baseValue: change.value)
        }
    }

    /// The feed shows a trip this device held as deleted live again (an owner restored it): the
    /// changes the delete refused, and those of the trip's own fields it met, are sent again.
    /// Inside the caller's transaction.
    func resendChangesTheDeleteRefused(_ trip: TripID) throws {
        try resendTripFieldsTheDeleteMet(trip)
        try sendRefusedAgain(
            where: "trip_id = ? AND rejected_reason = ?", [trip.description, TripMergeRule.tripDeletedReason])
    }
}
