import Foundation
import QuireSQLite
import QuireTrips

// MARK: - Conflicts: settling what the server answered, and the person's choices

extension TripsDatabase {
    /// What became of an op the server answered with a conflict.
    package enum ConflictOutcome: Sendable, Equatable {
        /// The notes field merged cleanly; the merge is queued on the server's revision.
        case merged
        /// A conflict waits for the person.
        case asked
        /// The item was deleted elsewhere; this device's edits are kept as a conflict to restore.
        case deleteWon
        /// The server already holds this device's value.
        case same
    }

    /// Settles a conflict the server answered for the op `seq`, in one transaction: the server's
    /// value (`field`, `value`, `revision`; `value` already opened) becomes the field's confirmed
    /// value, and then:
    /// - an edit that met the item's delete (a conflict on `deleted`, now `true`): the delete wins;
    ///   the op and every unsent change of the item become the edited values of one conflict on
    ///   the item, which ``restoreItem(_:)`` brings back;
    /// - otherwise this device's newest value of the field (an unsent edit queued behind the op,
    ///   or the op's) goes through ``TripFieldMerge``: the same value ends it, a clean merge of the
    ///   notes is queued on the server's revision, anything else is kept as a conflict.
    package func settleConflict(_ seq: Int, field: String, value: String?, revision: Int) throws -> ConflictOutcome {
        try write {
            guard let op = try storedOp(seq) else {
                // An earlier op of its request met the item's delete and took this one along.
                let folded = field == TripField.deleted.rawValue && value == TripFieldRules.deletedValue
                return folded ? .deleteWon : .same
            }
            try connection.run("DELETE FROM outbox WHERE seq = ?", seq)
            try storeConfirmed(trip: op.trip, item: op.item, field: field, value: value, revision: revision)
            let key = op.item.storageKey
            if field == TripField.deleted.rawValue, op.field != field, value == TripFieldRules.deletedValue {
                try keepEditsOfDeletedItem(op, deleteRevision: revision)
                return .deleteWon
            }
            let theirs =
                field == op.field ? value : try confirmedValue(trip: op.trip, item: key, field: op.field)?.value
            let theirRevision = field == op.field ? revision : op.baseRevision
            let later = try fieldOps(trip: op.trip, item: key, field: op.field).last { $0.isUnsent }
            let mine = later.map(\.value) ?? op.value
            switch TripFieldMerge.resolve(field: op.field, base: op.baseValue, mine: mine, theirs: theirs) {
            case .same:
                if let later { try connection.run("DELETE FROM outbox WHERE seq = ?", later.seq) }
                return .same
            case .merged(let text):
                if let later {
                    try connection.run(
                        "UPDATE outbox SET value = ?, base_revision = ?, base_value = ? WHERE seq = ?", text,
                        theirRevision, theirs, later.seq)
                } else {
                    try insertOp(
                        trip: op.trip, item: key, field: op.field, value: text, baseRevision: theirRevision,
                        baseValue: theirs)
                }
                return .merged
            case .ask:
                if let later { try connection.run("DELETE FROM outbox WHERE seq = ?", later.seq) }
                try storeConflict(
                    trip: op.trip, item: key, field: op.field, mine: mine, theirs: theirs, theirRevision: theirRevision,
                    mineBase: later?.baseValue ?? op.baseValue, edited: nil)
                return .asked
            }
        }
    }

    /// Settles a conflict by the person's choice, in one transaction. `.mine` queues this device's
    /// value on the server's revision (so it applies unless the field changed again); `.theirs`
    /// keeps the server's. For an item deleted while edited, `.mine` restores it
    /// (``restoreItem(_:)``) and `.theirs` lets the delete stand; so for a trip deleted while
    /// changed (``restoreTrip(_:)``, an owner's), whose changes `.theirs` drops.
    /// A change of the field the server refused, with no conflict, is settled too: `.theirs` drops
    /// it, `.mine` sends it again.
    /// - Throws: ``TripsDatabaseError`` `.unknownConflict` when no conflict (nor refused change)
    ///   waits on the field, `.ownersOnly` when an editor would restore a trip.
    public func resolveConflict(trip: TripID, item: ItemID?, field: TripField, keep choice: TripConflictChoice)
        throws
    {
        try write {
            if item == nil, field == .deleted, try !deletedTripOffers(in: trip).isEmpty {
                if choice == .mine { try restoreTrip(trip) } else { try letDeletedTripGo(trip) }
                return
            }
            guard let conflict = try storedConflict(trip: trip, item: item, field: field) else {
                // A change the server refused (a role taken away meanwhile) is settled the same
                // way: theirs lets it go, and the server's value shows again; mine sends it again.
                let key: [any SQLiteBindable] = [trip.description, item.storageKey, field.rawValue]
                let refused = "trip_id = ? AND item_id = ? AND field = ?"
                guard
                    try !connection.query(
                        "SELECT 1 FROM outbox WHERE rejected = 1 AND \(refused) LIMIT 1", bindings: key,
                        map: { _ in true }
                    ).isEmpty
                else {
                    throw TripsDatabaseError(
                        .unknownConflict, "no conflict on \(field.rawValue) of \(item?.description ?? "\(trip)")")
                }
                if choice == .theirs {
                    _ = try connection.run("DELETE FROM outbox WHERE rejected = 1 AND \(refused)", bindings: key)
                } else {
                    try sendRefusedAgain(where: refused, key)
                }
                return
            }
            if conflict.isDeletedWhileEdited, choice == .mine, let item {
                try restoreInTransaction(trip: trip, item: item)
                return
            }
            try deleteConflict(trip: trip, item: item.storageKey, field: field.rawValue)
            guard choice == .mine else { return }
            try insertOp(
                trip: trip, item: item.storageKey, field: field.rawValue, value: conflict.mine,
                baseRevision: conflict.theirRevision, baseValue: conflict.theirs)
        }
    }

    /// ``resolveConflict(trip:item:field:keep:)`` for a field of an item, found by its id alone.
    /// - Throws: ``TripsDatabaseError`` `.unknownItem`, `.unknownConflict`.
    public func resolveConflict(item: ItemID, field: TripField, keep choice: TripConflictChoice) throws {
        guard let trip = try tripOf(item) else {
            throw TripsDatabaseError(.unknownItem, "no item \(item) on this device")
        }
        try resolveConflict(trip: trip, item: item, field: field, keep: choice)
    }

    /// Brings back a deleted item (seed 002 §5, "This item was deleted. Restore it?"), in one
    /// transaction: an op setting `deleted` to `false` on the delete's revision, then, when this
    /// device's edits met the delete, each edited field with its value. Restoring an item deleted
    /// without a conflict works too (an undo).
    /// - Throws: ``TripsDatabaseError`` `.unknownItem`; restoring a live item changes nothing.
    public func restoreItem(_ item: ItemID) throws {
        try write {
            guard let trip = try tripOf(item) else {
                throw TripsDatabaseError(.unknownItem, "no item \(item) on this device")
            }
            try requireLiveTrip(trip)
            try restoreInTransaction(trip: trip, item: item)
        }
    }

    // MARK: - Helpers

    private func restoreInTransaction(trip: TripID, item: ItemID) throws {
        let conflict = try storedConflict(trip: trip, item: item, field: .deleted)
        let deletedOnServer =
            try confirmedValue(trip: trip, item: item.description, field: TripField.deleted.rawValue)?.value
            == TripFieldRules.deletedValue
        try deleteConflict(trip: trip, item: item.description, field: TripField.deleted.rawValue)
        try queueChange(trip: trip, item: item, field: .deleted, value: TripFieldRules.restoredValue)
        try queueEdits(conflict, trip: trip, item: item)
        // The item as this device holds it goes too: a purge may have taken every field of it
        // from the server, and restoring makes the item again from what is sent (seed 6427).
        // Where the server still has a value, the same one applies without a new revision.
        guard deletedOnServer else { return }
        let held = try connection.query(
            "SELECT field, value, revision FROM fields WHERE trip_id = ? AND item_id = ? AND field != 'deleted'",
            trip.description, item.description
        ) { (field: $0.text(0), value: $0.optionalText(1), revision: $0.int(2)) }
        for field in held {
            // An edit queued above goes instead; one equal to the held value queued nothing.
            guard try fieldOps(trip: trip, item: item.description, field: field.field).isEmpty else { continue }
            try insertOp(
                trip: trip, item: item.description, field: field.field, value: field.value,
                baseRevision: field.revision, baseValue: field.value)
        }
    }

    /// The delete won over `op`: `op`'s value and every unsent change of its item join the item's
    /// one delete conflict (newer values over older), and leave the outbox.
    private func keepEditsOfDeletedItem(_ op: TripsStoredOp, deleteRevision: Int) throws {
        let key = op.item.storageKey
        let existing = try storedConflict(trip: op.trip, item: op.item, field: .deleted)
        var edited: [String: TripEditedValue] = [:]
        // This device's acknowledged edits of the item come back with the restore too: the
        // conflict's answer does not say what the delete had seen (seed 252: a title applied
        // before the delete was lost when a later edit met the delete).
        for write in try ownWrites(in: op.trip) where write.item == key && write.field != TripField.deleted.rawValue {
            edited[write.field] = write.asEdit
        }
        for (field, edit) in existing?.edits ?? [:] { edited[field.rawValue] = edit }
        edited[op.field] = op.asEdit
        // The item's later ops join in order, unsent ones and the rest of this request (which
        // meet the same delete): each answer taken alone would put an older value of a field
        // back over one typed after it (seed 8014).
        let later = try connection.query(
            TripsStoredOp.select
                + """
                 WHERE trip_id = ? AND item_id = ? AND field != 'deleted'
                   AND (request_id IS NULL OR (request_id = ? AND seq > ?)) ORDER BY seq
                """,
            bindings: [op.trip.description, key, op.requestID, op.seq], map: TripsStoredOp.read)
        for later in later {
            edited[later.field] = later.asEdit
            try connection.run("DELETE FROM outbox WHERE seq = ?", later.seq)
        }
        try storeDeleteConflict(trip: op.trip, item: key, edited: edited, deleteRevision: deleteRevision)
        // The item's other conflicts waiting for the person join it: the item is gone.
        if let item = op.item {
            try offerUnseenEdits(trip: op.trip, item: item, deleteRevision: deleteRevision, seenRevision: nil, own: [])
        }
    }

    /// The item's one delete conflict ("This item was deleted. Restore it?") with `edited`, the
    /// fields restoring brings back.
    func storeDeleteConflict(
        trip: TripID, item: String, edited: [String: TripEditedValue], deleteRevision: Int
    ) throws {
        try storeConflict(
            trip: trip, item: item, field: TripField.deleted.rawValue, mine: TripFieldRules.restoredValue,
            theirs: TripFieldRules.deletedValue, theirRevision: deleteRevision, mineBase: nil,
            edited: try Self.editsJSON(edited))
    }

    /// A delete conflict's edits as its `edited_values` column holds them, by field name.
    static func editsJSON(_ edited: [String: TripEditedValue]) throws -> String {
        String(decoding: try JSONEncoder().encode(edited), as: UTF8.self)
    }

    /// Queues a restored item's edits, in the order of their fields' names; each goes on what
    /// its value started from (``queueChange(trip:item:field:value:startedFrom:)``). Then its
    /// photos' attaches and removals, as ``queuePhotoField(trip:item:photo:value:)`` queues any.
    func queueEdits(_ conflict: TripFieldConflict?, trip: TripID, item: ItemID) throws {
        for (field, edit) in (conflict?.edits ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try queueChange(trip: trip, item: item, field: field, value: edit.value, startedFrom: edit.startedFrom)
        }
        for (field, edit) in (conflict?.photoEdits ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let photo = Self.photoID(ofField: field) else { continue }
            try queuePhotoField(trip: trip, item: item, photo: photo, value: edit.value)
        }
    }

    func storedConflict(trip: TripID, item: ItemID?, field: TripField) throws -> TripFieldConflict? {
        try connection.queryFirst(
            Self.conflictSelect + " WHERE trip_id = ? AND item_id = ? AND field = ?", trip.description,
            item.storageKey, field.rawValue, map: Self.conflict) ?? nil
    }

    /// Stores a conflict waiting for the person; `mineBase`: the value `mine` started from.
    func storeConflict(
        trip: TripID, item: String, field: String, mine: String?, theirs: String?, theirRevision: Int,
        mineBase: String?, edited: String?
    ) throws {
        try connection.run(
            """
            INSERT INTO conflicts (trip_id, item_id, field, mine, theirs, their_revision, mine_base, edited_values,
                created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (trip_id, item_id, field) DO UPDATE SET mine = excluded.mine, theirs = excluded.theirs,
                their_revision = excluded.their_revision, mine_base = excluded.mine_base,
                edited_values = excluded.edited_values
            """, trip.description, item, field, mine, theirs, theirRevision, mineBase, edited,
            now().timeIntervalSinceReferenceDate)
    }

    func deleteConflict(trip: TripID, item: String, field: String) throws {
        try connection.run(
            "DELETE FROM conflicts WHERE trip_id = ? AND item_id = ? AND field = ?", trip.description, item, field)
    }
}
