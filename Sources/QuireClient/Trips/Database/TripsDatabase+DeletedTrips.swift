import Foundation
import QuireTrips
import QuireWire

// MARK: - A trip deleted on another device while this one changed it

/// The server answers an op on an item of a deleted trip with a refusal (`trip_deleted`), and the
/// trips feed marks the trip deleted, which hides it. The changes this device had made of it stay
/// in the outbox, and together they are one offer, "This trip was deleted. Restore it?"
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

    /// One offer for each deleted trip this device holds changes of (`item` nil, `field`
    /// `.deleted`, ``TripFieldConflict/changesOfDeletedTrip`` the number of changes), of `trip`
    /// alone when given.
    func deletedTripOffers(in trip: TripID? = nil) throws -> [TripFieldConflict] {
        try connection.query(
            "SELECT t.id, MAX(t.feed_revision), COUNT(*) " + Self.changesOfDeletedTrips
                + (trip == nil ? "" : " AND t.id = ?") + " GROUP BY t.id ORDER BY MIN(t.created_at), t.id",
            bindings: trip.map { [$0.description] } ?? []
        ) { row in
            TripID(row.text(0)).map {
                TripFieldConflict(
                    trip: $0, item: nil, field: .deleted, mine: TripFieldRules.restoredValue,
                    theirs: TripFieldRules.deletedValue, theirRevision: row.int(1), changesOfDeletedTrip: row.int(2))
            }
        }.compactMap { $0 }
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
            try connection.run("UPDATE trips SET deleted = 0 WHERE id = ?", trip.description)
        }
    }

    /// The person let a deleted trip go: the changes of it this device held, and the conflicts
    /// waiting in it, are dropped. Inside the caller's transaction.
    func letDeletedTripGo(_ trip: TripID) throws {
        try connection.run(
            "DELETE FROM outbox WHERE trip_id = ? AND NOT (item_id = '' AND field = 'deleted')", trip.description)
        try connection.run("DELETE FROM conflicts WHERE trip_id = ?", trip.description)
    }

    /// The feed shows a trip this device held as deleted live again (an owner restored it): the
    /// changes the delete refused are sent again, as they were. Inside the caller's transaction.
    func resendChangesTheDeleteRefused(_ trip: TripID) throws {
        try connection.run(
            """
            UPDATE outbox SET rejected = 0, rejected_reason = NULL, request_id = NULL, sealed_value = NULL,
                value_hash = NULL, attempts = 0, retry_at = NULL, last_error = NULL
            WHERE trip_id = ? AND rejected = 1 AND rejected_reason = ?
            """, trip.description, TripMergeRule.tripDeletedReason)
    }
}
