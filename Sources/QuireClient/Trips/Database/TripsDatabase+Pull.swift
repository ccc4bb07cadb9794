import Foundation
import QuireCrypto
import QuireTrips

// MARK: - Pulling: the engine's half

extension TripsDatabase {
    /// A trip as the account's feed lists it, its key already unwrapped (nil: it did not open).
    package struct FeedTrip: Sendable, Equatable {
        package var id: TripID
        package var key: SymmetricKey256?
        package var role: String
        package var deleted: Bool
        package var revision: Int
        /// The account is no longer a member: the device deletes its copy.
        package var removed: Bool
        /// The epoch of `key`, and the trip's older keys from its chain (those this device lacks).
        package var epoch: Int
        package var olderKeys: [Int: SymmetricKey256]
        /// `key` is another key of the epoch this device holds (a server restored from a backup
        /// taken before a rotation, and a rotation since, gave the epoch again): it and the
        /// chain's older keys replace the held ones.
        package var replacesHeldKey = false
        /// The server's key is of an older epoch than the one this device holds (restored from a
        /// backup taken before the rotations after it): the device goes back to that epoch.
        package var rewindsHeldKey = false
        /// A member left since the key last rotated, and the server asks an owner to rotate it.
        package var rekeyDue = false
        /// For a deleted trip: the newest revision its deleter had seen (nil: unknown).
        package var deleteSeenRevision: Int?

        package init(
            id: TripID, key: SymmetricKey256?, role: String, deleted: Bool, revision: Int, removed: Bool = false,
            epoch: Int = 1, olderKeys: [Int: SymmetricKey256] = [:]
        ) {
            self.removed = removed
            self.epoch = epoch
            self.olderKeys = olderKeys
            self.id = id
            self.key = key
            self.role = role
            self.deleted = deleted
            self.revision = revision
        }
    }

    /// A field from the trip's changes or snapshot, its value already opened.
    package struct PulledField: Sendable, Hashable {
        package var item: ItemID?
        package var field: String
        package var value: String?
        package var revision: Int
        /// For an item's tombstone: the newest revision of the item its deleter had seen.
        package var seenRevision: Int?
        /// The username whose request wrote it, as the server lists it.
        package var author: String?

        /// An item's `deleted` set to `true`.
        var isItemTombstone: Bool {
            item != nil && field == TripField.deleted.rawValue && value == TripFieldRules.deletedValue
        }

        package init(
            item: ItemID?, field: String, value: String?, revision: Int, seenRevision: Int? = nil,
            author: String? = nil
        ) {
            self.item = item
            self.field = field
            self.value = value
            self.revision = revision
            self.seenRevision = seenRevision
            self.author = author
        }
    }

    /// A trip whose changes are to be pulled: from `cursor`, or from its snapshot when nil.
    package struct TripToPull: Sendable, Equatable {
        package var trip: TripID
        package var cursor: Cursor?
        package var key: SymmetricKey256
        /// The revision the feed showed: once the pull reaches the end of the trip's changes, the
        /// trip is caught up to at least this.
        package var feedRevision: Int
        /// The positions this device's acknowledged requests left the trip at, not yet shown to
        /// be in the server's history: sent as `known=`.
        package var known: [Cursor] = []
    }

    static let tripsFeedScope = "trips"

    /// The cursor of the account's trips feed; nil before the first page.
    package func tripsFeedCursor() throws -> Cursor? {
        try connection.queryFirst("SELECT cursor FROM sync_state WHERE scope = ?", Self.tripsFeedScope) {
            $0.optionalText(0).map(Cursor.init)
        } ?? nil
    }

    /// Forgets the trips feed's cursor: the next pull lists every trip again, and pulls each
    /// (a feed cursor the server no longer takes may mean it was restored from a backup, and each
    /// trip's cursor must then be checked, even where the feed shows no newer revision).
    package func resetTripsFeed() throws {
        try write {
            try connection.run("DELETE FROM sync_state WHERE scope = ?", Self.tripsFeedScope)
            try connection.run("UPDATE trips SET pulled_revision = -1")
        }
    }

    /// Applies a page of the account's trips feed and its cursor in one transaction: a trip new
    /// to this device is added with its key (its fields come with its snapshot); a known one
    /// takes its role, its deleted mark and the revision the feed shows, and its key when the key
    /// is of a newer epoch (the one it replaces is kept, to open older values). A new trip whose
    /// key did not open is skipped.
    /// - Throws: ``TripsDatabaseError`` `.wrongAccount` for a page of another account than the
    ///   one bound to this database.
    @discardableResult
    package func applyTripsFeed(
        _ trips: [FeedTrip], cursor: Cursor, account: AccountID, username: String? = nil
    ) throws -> [Removal] {
        try write {
            if let bound = try readMeta(.account), bound != account.rawValue {
                throw TripsDatabaseError(.wrongAccount, "this database holds the trips of account \(bound)")
            }
            var removals: [Removal] = []
            for trip in trips {
                if trip.removed {
                    // The membership the removal ended is remembered, as a leave's is: a server
                    // restored from before the removal lists the trip again, and the device
                    // leaves it again instead of pulling what was written since.
                    // A leave made here was remembered when it was made, and its copy is gone.
                    if let username, try keyEpoch(trip.id) != nil {
                        try rememberDeparture(from: trip.id, as: username)
                    }
                    if let removal = try removeLocalCopyInTransaction(trip.id) { removals.append(removal) }
                    continue
                }
                let wasDeleted =
                    try connection.queryFirst(
                        "SELECT deleted FROM trips WHERE id = ?", trip.id.description, map: { $0.bool(0) })
                let restored = !trip.deleted && wasDeleted == true
                if trip.deleted, wasDeleted == false, let seen = trip.deleteSeenRevision {
                    try holdChangesTheDeleteDidNotSee(trip.id, seen: seen)
                }
                let updated = try connection.run(
                    """
                    UPDATE trips SET role = ?, deleted = ?, on_server = 1, feed_revision = MAX(feed_revision, ?)
                    WHERE id = ?
                    """, trip.role, trip.deleted, trip.revision, trip.id.description)
                if restored { try resendChangesTheDeleteRefused(trip.id) }
                if updated > 0, trip.rewindsHeldKey { try rewindKeyInTransaction(trip.id, to: trip.epoch) }
                if updated > 0 { try noteKeyWorkInTransaction(trip) }
                guard let key = trip.key else { continue }
                guard updated == 0 else {
                    if trip.replacesHeldKey {
                        try replaceKeyInTransaction(trip.id, key: key, epoch: trip.epoch, older: trip.olderKeys)
                    } else {
                        try adoptKeyInTransaction(trip.id, key: key, epoch: trip.epoch, older: trip.olderKeys)
                    }
                    continue
                }
                try connection.run(
                    """
                    INSERT INTO trips (id, key, key_epoch, role, deleted, on_server, feed_revision, created_at)
                    VALUES (?, ?, ?, ?, ?, 1, ?, ?)
                    """, trip.id.description, key.data, trip.epoch, trip.role, trip.deleted, trip.revision,
                    now().timeIntervalSinceReferenceDate)
                try keepOlderKeys(trip.id, trip.olderKeys.filter { $0.key < trip.epoch })
                try noteKeyWorkInTransaction(trip)
            }
            try connection.run(
                """
                INSERT INTO sync_state (scope, cursor) VALUES (?, ?)
                ON CONFLICT (scope) DO UPDATE SET cursor = excluded.cursor
                """, Self.tripsFeedScope, cursor.rawValue)
            return removals
        }
    }

    /// The trips to pull: on the server, not deleted, and either never pulled (no cursor: the
    /// snapshot) or shown by the feed at a revision newer than the one pulled.
    package func tripsToPull() throws -> [TripToPull] {
        try connection.query(
            """
            SELECT id, cursor, key, feed_revision, known_position FROM trips
            WHERE on_server = 1 AND deleted = 0
              AND (cursor IS NULL OR feed_revision > pulled_revision OR known_position IS NOT NULL)
            ORDER BY created_at, id
            """
        ) { row in
            guard let trip = TripID(row.text(0)), let key = SymmetricKey256(data: row.blob(2)) else { return nil }
            return TripToPull(
                trip: trip, cursor: row.optionalText(1).map(Cursor.init), key: key, feedRevision: row.int(3),
                known: Self.positions(row.optionalText(4)).map(Cursor.init))
        }.compactMap { $0 }
    }

    /// Applies a page of a trip's changes and its cursor in one transaction. A field is taken only
    /// when its revision is newer than the one held (a page pulled twice changes nothing), and
    /// never hides a waiting change: reading shows the change on top until it is answered.
    /// `caughtUpThrough`: on the last page, the revision the feed showed, which the trip has now
    /// reached even if no field of it changed (so it is not pulled again). `verified`: on the
    /// last page, the known positions the pull sent, which the server has shown it holds (they
    /// are forgotten; any acknowledged meanwhile stay).
    /// Returns how many fields were newer than the ones held (a device's own writes coming back
    /// are not).
    @discardableResult
    package func applyTripChanges(
        _ trip: TripID, fields: [PulledField], cursor: Cursor, caughtUpThrough: Int = 0, verified: [Cursor] = []
    ) throws -> Int {
        try write {
            var stored = 0
            try rememberEndedMemberships(in: trip, fields)
            try forgetSetAsideValues(in: trip, fields)
            for field in fields where try applyPulled(trip, field) { stored += 1 }
            try sendSetAsideValuesOfDeparted(in: trip)
            try connection.run(
                "UPDATE trips SET cursor = ?, pulled_revision = MAX(pulled_revision, ?, ?) WHERE id = ?",
                cursor.rawValue, fields.map(\.revision).max() ?? 0, caughtUpThrough, trip.description)
            if !verified.isEmpty {
                let checked = Set(verified.map(\.rawValue))
                let held = try uncheckedPositions(trip)
                let left = held.filter { !checked.contains($0) }
                try connection.run(
                    "UPDATE trips SET known_position = ? WHERE id = ?",
                    left.isEmpty ? nil : left.joined(separator: ","),
                    trip.description)
            }
            return stored
        }
    }

    /// Replaces the trip's confirmed values with its snapshot, in one transaction (bootstrap, and
    /// the resync after an expired cursor or a restored server). The waiting changes stay, on
    /// their old bases (the server's check then settles them), and so do conflicts. When the
    /// server's history is not the one this device synced with (`serverForgot`: restored from a
    /// backup), this device's acknowledged writes the snapshot lacks are sent again
    /// (``resendForgottenWrites(_:of:own:)``); otherwise an absent item was purged. Items the snapshot no longer has and
    /// nothing here refers to go. Returns how many of the snapshot's fields are newer than the
    /// ones held (a trip this device made and sent is not news to it).
    @discardableResult
    package func replaceWithSnapshot(
        _ trip: FeedTrip, fields: [PulledField], cursor: Cursor, serverForgot: Bool = false
    ) throws -> Int {
        try write {
            let held = try connection.query(
                "SELECT item_id, field, revision FROM fields WHERE trip_id = ?", trip.id.description
            ) { (key: $0.text(0) + "/" + $0.text(1), revision: $0.int(2)) }
            let heldRevisions = Dictionary(held.map { ($0.key, $0.revision) }, uniquingKeysWith: max)
            let newFields = fields.filter { $0.revision > heldRevisions[$0.item.storageKey + "/" + $0.field] ?? 0 }
            let own = try ownWrites(in: trip.id)
            let purged = serverForgot ? [:] : try purgedUnseen(trip.id, snapshot: fields, own: own)
            // A departure the snapshot lists counts too (the member's device left again first).
            try rememberEndedMemberships(in: trip.id, fields)
            let departed = serverForgot ? try departedMembersValues(in: trip.id, role: trip.role) : []
            if serverForgot { try setAsideForgottenValues(in: trip.id, snapshot: fields) }
            try forgetSetAsideValues(in: trip.id, fields)
            try connection.run("DELETE FROM fields WHERE trip_id = ?", trip.id.description)
            for field in fields { try applyPulled(trip.id, field) }
            // This device's acknowledged writes the snapshot still holds stay marked as its own;
            // a delete the snapshot brings that had not seen one offers it back.
            for write in own {
                try connection.run(
                    """
                    UPDATE fields SET mine = 1
                    WHERE trip_id = ? AND item_id = ? AND field = ? AND revision = ? AND value IS ?
                    """, trip.id.description, write.item, write.field, write.revision, write.value)
            }
            // Forgotten writes first: one that meets another device's value becomes a conflict, and
            // one on an item deleted since joins the item's restore offer below (seed 250).
            if serverForgot {
                // The forgotten writes join the waiting changes, and all of them go on the new
                // history's bases (a forgotten delete too, seed 6126).
                try resendForgottenWrites(fields, of: trip.id, own: own)
                // Values of members who left: their devices deleted their copies, so this one sends them.
                try resendForgottenWrites(fields, of: trip.id, own: departed)
                try rebaseWaitingChanges(
                    of: trip.id, on: fields, heldItems: Set(held.map { String($0.key.prefix { $0 != "/" }) }))
            }
            for (item, edited) in purged {
                try storeDeleteConflict(trip: trip.id, item: item, edited: edited, deleteRevision: trip.revision)
            }
            for field in newFields where field.isItemTombstone {
                guard let item = field.item else { continue }
                try offerUnseenEdits(
                    trip: trip.id, item: item, deleteRevision: field.revision, seenRevision: field.seenRevision,
                    own: own)
            }
            // An item purged since this device's edit met its delete is in no snapshot: it keeps
            // the tombstone its conflict answered, so it still shows as deleted, to restore.
            try connection.run(
                """
                INSERT INTO fields (trip_id, item_id, field, value, revision)
                SELECT c.trip_id, c.item_id, 'deleted', 'true', c.their_revision FROM conflicts c
                WHERE c.trip_id = ? AND c.field = 'deleted' AND c.edited_values IS NOT NULL
                  AND NOT EXISTS (
                    SELECT 1 FROM fields f WHERE f.trip_id = c.trip_id AND f.item_id = c.item_id AND f.field = 'deleted')
                """, trip.id.description)
            try connection.run(
                """
                DELETE FROM items WHERE trip_id = ?1
                  AND NOT EXISTS (SELECT 1 FROM fields f WHERE f.trip_id = ?1 AND f.item_id = items.id)
                  AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.trip_id = ?1 AND o.item_id = items.id)
                  AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE c.trip_id = ?1 AND c.item_id = items.id)
                """, trip.id.description)
            try connection.run(
                """
                UPDATE trips SET cursor = ?, role = ?, deleted = ?, on_server = 1,
                    pulled_revision = ?, feed_revision = CASE WHEN ? THEN ? ELSE MAX(feed_revision, ?) END,
                    known_position = NULL
                WHERE id = ?
                """, cursor.rawValue, trip.role, trip.deleted, trip.revision, serverForgot, trip.revision,
                trip.revision, trip.id.description)
            return newFields.count
        }
    }

    /// Stores a pulled field and keeps the field's conflict in step (``keepConflictInStep(_:_:)``);
    /// an item's delete that had not seen this device's acknowledged edits of the item offers
    /// them back (``offerUnseenEdits(trip:item:deleteRevision:seenRevision:own:)``).
    /// Returns whether the field was newer than the one held, and so stored.
    @discardableResult
    private func applyPulled(_ trip: TripID, _ field: PulledField) throws -> Bool {
        guard
            try storeConfirmed(
                trip: trip, item: field.item, field: field.field, value: field.value, revision: field.revision,
                seenRevision: field.seenRevision, author: field.author)
        else {
            // The tombstone came first in a conflict's answer, which does not say what the delete
            // had seen: the pull does, and what it had not seen is offered back now.
            if let item = field.item, field.isItemTombstone, let seen = field.seenRevision,
                try connection.run(
                    """
                    UPDATE fields SET seen_revision = ?
                    WHERE trip_id = ? AND item_id = ? AND field = 'deleted' AND value = 'true' AND revision = ?
                      AND seen_revision IS NULL
                    """, seen, trip.description, item.description, field.revision) > 0
            {
                try offerUnseenEdits(
                    trip: trip, item: item, deleteRevision: field.revision, seenRevision: seen,
                    own: try ownWrites(in: trip))
            }
            return false
        }
        try keepConflictInStep(trip, field)
        if let item = field.item, field.isItemTombstone {
            try offerUnseenEdits(
                trip: trip, item: item, deleteRevision: field.revision, seenRevision: field.seenRevision,
                own: try ownWrites(in: trip))
        }
        return true
    }

    /// Keeps the pulled field's conflict in step: a conflict whose value the server now holds is
    /// over; otherwise it shows the server's newest value. An item whose delete another device
    /// undid gets this device's edits queued again.
    private func keepConflictInStep(_ trip: TripID, _ field: PulledField) throws {
        guard let name = TripField(rawValue: field.field),
            let conflict = try storedConflict(trip: trip, item: field.item, field: name)
        else { return }
        let key = field.item.storageKey
        if conflict.isDeletedWhileEdited, field.value == TripFieldRules.restoredValue, let item = field.item {
            try deleteConflict(trip: trip, item: key, field: field.field)
            try queueEdits(conflict, trip: trip, item: item)
        } else if conflict.mine == field.value {
            try deleteConflict(trip: trip, item: key, field: field.field)
        } else {
            // It shows the server's newest value; this device's value, what it started from and
            // the edits a delete conflict holds for restoring stay.
            try connection.run(
                "UPDATE conflicts SET theirs = ?, their_revision = ? WHERE trip_id = ? AND item_id = ? AND field = ?",
                field.value, field.revision, trip.description, key, field.field)
        }
    }
}
