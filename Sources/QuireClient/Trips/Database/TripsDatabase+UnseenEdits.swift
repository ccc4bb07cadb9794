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
        /// The value the write replaced.
        var replaced: String? = nil

        /// The write as an edit to restore: the server took it, so it started from itself.
        var asEdit: TripEditedValue { TripEditedValue(value, startedFrom: .init(value)) }
    }

    /// The trip's fields (its own and its items') whose confirmed value is this device's own
    /// acknowledged write.
    func ownWrites(in trip: TripID) throws -> [OwnWrite] {
        try connection.query(
            "SELECT item_id, field, value, revision, mine_base FROM fields WHERE trip_id = ? AND mine = 1",
            trip.description
        ) {
            OwnWrite(
                item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3),
                replaced: $0.optionalText(4))
        }
    }

    /// Another device deleted `item` at `deleteRevision` having seen the item only up to
    /// `seenRevision` (nil: unknown, take it that it saw everything). Seed 002 §5: the delete
    /// wins, and the edit comes back to its editor. This device's writes of the item acknowledged
    /// after that, its changes the server refused, and its own values of the item's conflicts
    /// waiting for the person join the item's delete conflict, as an edit the delete met on its
    /// way does, for the person to restore or let go ("This item was deleted. Restore it?", not
    /// "Keep mine?" on an item that is gone). Inside the caller's transaction.
    func offerUnseenEdits(
        trip: TripID, item: ItemID, deleteRevision: Int, seenRevision: Int?, own: [OwnWrite]
    ) throws {
        let seen = seenRevision ?? deleteRevision
        let unseen = own.filter {
            $0.item == item.description && $0.field != TripField.deleted.rawValue
                && $0.revision > seen && $0.revision < deleteRevision
        }
        // Another device's or member's write the delete had not seen, pulled here: offered back on
        // every device that holds it, so it is not lost when its author's device is (issue 15).
        let pulled = try connection.query(
            """
            SELECT field, value FROM fields
            WHERE trip_id = ? AND item_id = ? AND mine = 0 AND field != 'deleted' AND revision > ? AND revision < ?
            """, trip.description, item.description, seen, deleteRevision
        ) { ($0.text(0), TripEditedValue($0.optionalText(1), startedFrom: .init($0.optionalText(1)))) }
        let pulledEdits = Dictionary(pulled, uniquingKeysWith: { $1 })
        // A conflict's own value keeps what it started from: restoring the item asks the
        // conflict's question again instead of answering it (seed 7288).
        let waiting = try connection.query(
            "SELECT field, mine, mine_base FROM conflicts WHERE trip_id = ? AND item_id = ? AND field != 'deleted'",
            trip.description, item.description
        ) { (field: $0.text(0), edit: TripEditedValue($0.optionalText(1), startedFrom: .init($0.optionalText(2)))) }
        // A change the server refused stays shown on a live item; on a deleted one it would be
        // shown nowhere (seed 366).
        let refused = try connection.query(
            """
            SELECT field, value, base_value FROM outbox
            WHERE trip_id = ? AND item_id = ? AND rejected = 1 AND field != 'deleted'
            """, trip.description, item.description
        ) { (field: $0.text(0), edit: TripEditedValue($0.optionalText(1), startedFrom: .init($0.optionalText(2)))) }
        guard !unseen.isEmpty || !pulled.isEmpty || !waiting.isEmpty || !refused.isEmpty else { return }
        var edited = pulledEdits
        for write in unseen { edited[write.field] = write.asEdit }
        for change in refused { edited[change.field] = change.edit }
        for conflict in waiting { edited[conflict.field] = conflict.edit }
        try connection.run(
            "DELETE FROM conflicts WHERE trip_id = ? AND item_id = ? AND field != 'deleted'", trip.description,
            item.description)
        try connection.run(
            "DELETE FROM outbox WHERE trip_id = ? AND item_id = ? AND rejected = 1 AND field != 'deleted'",
            trip.description, item.description)
        // An edit the delete met on the way is newer than the acknowledged one it replaced. A
        // pulled value an earlier offer took is no newer than this device's own (seed 250: the
        // snapshot's tombstone offered another device's title before this device's forgotten
        // title became a conflict).
        for (field, edit) in try storedConflict(trip: trip, item: item, field: .deleted)?.edits ?? [:]
        where edited[field.rawValue] == nil || pulledEdits[field.rawValue] != edit {
            edited[field.rawValue] = edit
        }
        try storeDeleteConflict(trip: trip, item: item.description, edited: edited, deleteRevision: deleteRevision)
    }

    /// `write`'s answer came after the item's delete from another device arrived (its reply was
    /// lost and the resend answered later): when the delete had not seen it, it is offered back
    /// as it would have been had the answer come first. Inside the caller's transaction.
    func offerIfDeletedSince(_ write: OwnWrite, trip: TripID, item: ItemID) throws {
        let tombstone = try connection.queryFirst(
            """
            SELECT revision, seen_revision FROM fields
            WHERE trip_id = ? AND item_id = ? AND field = 'deleted' AND value = 'true' AND mine = 0
            """, trip.description, item.description
        ) { (revision: $0.int(0), seen: $0.optionalInt(1)) }
        guard let tombstone, tombstone.revision > write.revision else { return }
        try offerUnseenEdits(
            trip: trip, item: item, deleteRevision: tombstone.revision, seenRevision: tombstone.seen, own: [write])
    }

    /// The items this device held live, with acknowledged writes of its own, that a snapshot no
    /// longer has: deleted on another device and purged before this one saw the delete (a device
    /// offline longer than the retention). Whether the delete had seen the writes cannot be
    /// told any more, so they are offered back to restore, by item (seed 5661), on whatever the
    /// field holds then (the purge took what they started from).
    func purgedUnseen(
        _ trip: TripID, snapshot: [PulledField], own: [OwnWrite]
    ) throws -> [String: [String: TripEditedValue]] {
        let present = Set(snapshot.compactMap { $0.item?.description })
        let deletedHere = Set(
            try connection.query(
                "SELECT item_id FROM fields WHERE trip_id = ? AND field = 'deleted' AND value = 'true'",
                trip.description, map: { $0.text(0) }))
        var purged: [String: [String: TripEditedValue]] = [:]
        for write in own
        where !write.item.isEmpty && write.field != TripField.deleted.rawValue && !present.contains(write.item)
            && !deletedHere.contains(write.item)
        {
            purged[write.item, default: [:]][write.field] = TripEditedValue(write.value, startedFrom: nil)
        }
        return purged
    }
}
