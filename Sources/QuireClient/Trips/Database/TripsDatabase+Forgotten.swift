import Foundation
import QuireTrips

// MARK: - Forgotten writes: a server restored from a backup

extension TripsDatabase {
    /// The server answered that it has no such trip, though this device's account owns it (the
    /// server was restored from a backup from before the trip was made, and nobody else can
    /// remove an owner): the trip is made again at the next push, with every value this device
    /// holds. Each confirmed value without a waiting change is queued again, its cursor and
    /// positions are forgotten. Returns false, changing nothing, for a trip this account does not
    /// own (it was taken away: its changes stay refused).
    package func serverForgotTrip(_ trip: TripID) throws -> Bool {
        try write {
            guard try role(of: trip) == TripMemberRole.owner.rawValue else { return false }
            let held = try connection.query(
                "SELECT item_id, field, value, revision FROM fields WHERE trip_id = ?", trip.description
            ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
            try resendForgottenWrites([], of: trip, own: held)
            try connection.run(
                """
                UPDATE trips SET on_server = 0, cursor = NULL, known_position = NULL,
                    pulled_revision = 0, feed_revision = 0
                WHERE id = ?
                """, trip.description)
            try connection.run("UPDATE fields SET mine = 0 WHERE trip_id = ?", trip.description)
            return true
        }
    }

    /// After a snapshot from a server that forgot this device's writes (restored from a backup)
    /// replaced the trip's confirmed values: each of this device's acknowledged writes the
    /// snapshot does not hold is queued again where the snapshot holds nothing or the value the
    /// write replaced, and is a conflict for the person where it holds another value (written
    /// since by a device that never saw this write). Inside the caller's transaction.
    func resendForgottenWrites(_ snapshot: [PulledField], of trip: TripID, own: [OwnWrite]) throws {
        let held = Dictionary(
            snapshot.map { ($0.item.storageKey + "/" + $0.field, $0) },
            uniquingKeysWith: { $0.revision > $1.revision ? $0 : $1 })
        for write in own {
            let current = held[write.item + "/" + write.field]
            if let current, current.value == write.value { continue }
            guard try fieldOps(trip: trip, item: write.item, field: write.field).isEmpty else { continue }
            // Revisions of two histories cannot be compared; values can. The server holds nothing
            // there, or the value the write replaced: send it again. Anything else was written in
            // the new history by a device that never saw this write: the person chooses.
            guard let current, current.value != write.replaced else {
                try insertOp(
                    trip: trip, item: write.item, field: write.field, value: write.value,
                    baseRevision: max(write.revision, current?.revision ?? 0), baseValue: current?.value)
                continue
            }
            try storeConflict(
                trip: trip, item: write.item, field: write.field, mine: write.value, theirs: current.value,
                theirRevision: current.revision, mineBase: write.replaced, edited: nil)
        }
    }
}

// MARK: - Positions to check

extension TripsDatabase {
    /// The positions of the trip's acknowledged requests that no pull has checked yet.
    package func uncheckedPositions(_ trip: TripID) throws -> [String] {
        Self.positions(
            try connection.queryFirst("SELECT known_position FROM trips WHERE id = ?", trip.description) {
                $0.optionalText(0)
            } ?? nil)
    }

    /// The positions a `known_position` column holds.
    static func positions(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map(String.init)
    }
}

// MARK: - Waiting changes on a new history

extension TripsDatabase {
    /// The trip's cursor and the positions no pull has checked: the history the waiting ops'
    /// bases come from, which the server checks before it applies them.
    package func historyToCheck(_ trip: TripID) throws -> (cursor: Cursor?, known: [Cursor]) {
        let cursor =
            try connection.queryFirst("SELECT cursor FROM trips WHERE id = ?", trip.description) {
                $0.optionalText(0).map(Cursor.init)
            } ?? nil
        return (cursor, try uncheckedPositions(trip).map(Cursor.init))
    }

    /// After a snapshot from a server restored from a backup: the waiting changes' bases are
    /// revisions of the history it forgot, which may name other writes in the new one. Each goes
    /// back to being unsent (a frozen request is rebuilt, with a new opId) on a base of the new
    /// history: the field's revision when it still holds the value the edit started from, else
    /// one below it (a conflict, for the person, or a clean notes merge); an item's delete on
    /// none, so it offers every edit of the item back to its editor; a change of an item the
    /// server held (`heldItems`, the items this device had confirmed values of) and the
    /// snapshot has none of, on revision 1: deleted and purged in the new history, the purge
    /// answers with the delete and the edit is offered back; forgotten with the old history, the
    /// server takes it as new (seed 7092: on 0 the item came back from one device's resend while
    /// another showed it deleted). Inside the caller's transaction.
    func rebaseWaitingChanges(of trip: TripID, on snapshot: [PulledField], heldItems: Set<String>) throws {
        let current = Dictionary(
            snapshot.map { ($0.item.storageKey + "/" + $0.field, $0) },
            uniquingKeysWith: { $0.revision > $1.revision ? $0 : $1 })
        let snapshotItems = Set(snapshot.map(\.item.storageKey))
        let waiting = try connection.query(
            TripsStoredOp.select + " WHERE trip_id = ? AND rejected = 0 ORDER BY seq", bindings: [trip.description],
            map: TripsStoredOp.read)
        for op in waiting {
            let key = op.item.storageKey
            let base: Int
            if op.item != nil, op.field == TripField.deleted.rawValue, op.value == TripFieldRules.deletedValue {
                // What the person had seen when deleting cannot be told on the new history's
                // revisions (values pulled since are no proof): the delete offers every edit of
                // the item back to its editor (seeds 2426, 6126, 5789).
                base = 0
            } else if let field = current[key + "/" + op.field] {
                base = field.value == op.baseValue ? field.revision : field.revision - 1
            } else if op.item != nil, heldItems.contains(key), !snapshotItems.contains(key) {
                base = 1
            } else {
                base = 0
            }
            try connection.run(
                """
                UPDATE outbox SET base_revision = ?, request_id = NULL, sealed_value = NULL, value_hash = NULL
                WHERE seq = ?
                """, max(0, base), op.seq)
        }
    }
}
