import Foundation
import QuireTrips

// MARK: - Unseen edits: a delete that did not see this device's acknowledged writes

extension TripsDatabase {
    /// One of this device's own writes the server acknowledged, still the field's confirmed value.
    struct OwnWrite: Equatable {
        var item: String
        var field: String
        var value: String?
        var revision: Int
    }

    /// The trip's fields (its own and its items') whose confirmed value is this device's own
    /// acknowledged write.
    func ownWrites(in trip: TripID) throws -> [OwnWrite] {
        try connection.query(
            "SELECT item_id, field, value, revision FROM fields WHERE trip_id = ? AND mine = 1", trip.description
        ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
    }

    /// Another device deleted `item` at `deleteRevision` having seen the item only up to
    /// `seenRevision` (nil: unknown, take it that it saw everything) (seed 002 §5: the delete
    /// wins, and the edit comes back to its editor): this device's writes of the item
    /// acknowledged after that, and its own values of the item's conflicts waiting for the
    /// person, join the item's delete conflict, as an edit the delete met on its way does, for the
    /// person to restore or let go ("This item was deleted. Restore it?", not "Keep mine?" on an
    /// item that is gone). Inside the caller's transaction.
    func offerUnseenEdits(
        trip: TripID, item: ItemID, deleteRevision: Int, seenRevision: Int?, own: [OwnWrite]
    ) throws {
        let unseen = own.filter {
            $0.item == item.description && $0.field != TripField.deleted.rawValue
                && $0.revision > seenRevision ?? deleteRevision && $0.revision < deleteRevision
        }
        let waiting = try connection.query(
            "SELECT field, mine FROM conflicts WHERE trip_id = ? AND item_id = ? AND field != 'deleted'",
            trip.description, item.description
        ) { (field: $0.text(0), mine: $0.optionalText(1)) }
        guard !unseen.isEmpty || !waiting.isEmpty else { return }
        var edited: [String: String?] = [:]
        for write in unseen { edited[write.field] = write.value }
        for conflict in waiting { edited[conflict.field] = conflict.mine }
        try connection.run(
            "DELETE FROM conflicts WHERE trip_id = ? AND item_id = ? AND field != 'deleted'", trip.description,
            item.description)
        // An edit the delete met on the way is newer than the acknowledged one it replaced.
        for (field, value) in try storedConflict(trip: trip, item: item, field: .deleted)?.editedValues ?? [:] {
            edited[field.rawValue] = value
        }
        try storeDeleteConflict(trip: trip, item: item.description, edited: edited, deleteRevision: deleteRevision)
    }

    /// After a snapshot replaced the trip's confirmed values: each of this device's acknowledged
    /// writes that the snapshot does not hold at its revision or later was forgotten by the
    /// server (restored from a backup), and is queued again on the revision it had, so it applies
    /// unless the field was written since (then it is a conflict, shown). One the snapshot holds
    /// at the same revision with another value was overwritten in the server's new history by a
    /// device that never saw it: a conflict for the person to settle. Inside the caller's
    /// transaction.
    func resendForgottenWrites(_ snapshot: [PulledField], of trip: TripID, own: [OwnWrite]) throws {
        let held = Dictionary(
            snapshot.map { ($0.item.storageKey + "/" + $0.field, $0) },
            uniquingKeysWith: { $0.revision > $1.revision ? $0 : $1 })
        for write in own {
            let current = held[write.item + "/" + write.field]
            if let current, current.revision > write.revision || current.value == write.value { continue }
            guard try fieldOps(trip: trip, item: write.item, field: write.field).isEmpty else { continue }
            if let current, current.revision == write.revision {
                try storeConflict(
                    trip: trip, item: write.item, field: write.field, mine: write.value, theirs: current.value,
                    theirRevision: current.revision, edited: nil)
                continue
            }
            try insertOp(
                trip: trip, item: write.item, field: write.field, value: write.value, baseRevision: write.revision,
                baseValue: current?.value)
        }
    }
}
