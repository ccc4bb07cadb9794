import Foundation
import QuireCrypto
import QuireTrips

// MARK: - Editing: what the person does

extension TripsDatabase {
    /// Creates a trip on this device, with a new random key, and queues its fields; the server
    /// learns of it at the next sync. Returns its id. One transaction.
    /// - Throws: ``TripsDatabaseError`` `.invalidValue` for a value a field cannot hold.
    @discardableResult
    public func createTrip(
        title: String, startDate: LocalDate? = nil, endDate: LocalDate? = nil, notes: String? = nil,
        id: TripID = TripID()
    ) throws -> TripID {
        try write {
            try connection.run(
                "INSERT INTO trips (id, key, role, created_at) VALUES (?, ?, 'owner', ?)", id.description,
                SymmetricKey256.random().data, now().timeIntervalSinceReferenceDate)
            let values: [(TripField, String?)] = [
                (.title, title), (.startDate, startDate?.description), (.endDate, endDate?.description),
                (.notes, notes),
            ]
            for case let (field, value?) in values {
                try TripFieldRules.check(field, value, forItem: false)
                try queueChange(trip: id, item: nil, field: field, value: value)
            }
            return id
        }
    }

    /// Sets fields of the trip itself (title, dates, notes; nil clears one). One transaction:
    /// each changed field gets its outbox row, or folds into its unsent one.
    /// - Throws: ``TripsDatabaseError`` `.unknownTrip`, `.invalidValue`.
    public func editTrip(_ trip: TripID, _ changes: [TripField: String?]) throws {
        try write {
            try requireLiveTrip(trip)
            for (field, value) in changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try TripFieldRules.check(field, value, forItem: false)
                try queueChange(trip: trip, item: nil, field: field, value: value)
            }
        }
    }

    /// Deletes the trip: a tombstone, sent like any change. Throws `.unknownTrip`.
    public func deleteTrip(_ trip: TripID) throws {
        try write {
            try requireLiveTrip(trip)
            try queueChange(trip: trip, item: nil, field: .deleted, value: TripFieldRules.deletedValue)
        }
    }

    /// Adds an item to the trip with `values` (its order key among them: items sort by key, then
    /// id) and returns its id. One transaction.
    /// - Throws: ``TripsDatabaseError`` `.unknownTrip`, `.invalidValue`.
    @discardableResult
    public func addItem(to trip: TripID, _ values: [TripField: String?], id: ItemID = ItemID()) throws -> ItemID {
        try write {
            try requireLiveTrip(trip)
            try connection.run("INSERT INTO items (id, trip_id) VALUES (?, ?)", id.description, trip.description)
            for (field, value) in values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try TripFieldRules.check(field, value, forItem: true)
                try queueChange(trip: trip, item: id, field: field, value: value)
            }
            return id
        }
    }

    /// Sets fields of an item (nil clears one). One transaction; an edit that brings a field back
    /// to the server's value before it was sent leaves nothing to send.
    /// - Throws: ``TripsDatabaseError`` `.unknownItem`, `.deletedItem` (restore it first),
    ///   `.invalidValue`.
    public func editItem(_ item: ItemID, _ changes: [TripField: String?]) throws {
        try write {
            let trip = try requireLiveItem(item)
            for (field, value) in changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                try TripFieldRules.check(field, value, forItem: true)
                try queueChange(trip: trip, item: item, field: field, value: value)
            }
        }
    }

    /// Moves an item: one field of one item, its order key (computed by the caller between the
    /// neighbours' keys). Throws like ``editItem(_:_:)``.
    public func moveItem(_ item: ItemID, toOrder key: String) throws {
        try editItem(item, [.order: key])
    }

    /// Deletes an item: a tombstone, sent like any change; hidden from every list at once.
    /// Throws `.unknownItem`; deleting a deleted item changes nothing.
    public func deleteItem(_ item: ItemID) throws {
        try write {
            guard let trip = try tripOf(item) else {
                throw TripsDatabaseError(.unknownItem, "no item \(item) on this device")
            }
            try requireLiveTrip(trip)
            try queueChange(trip: trip, item: item, field: .deleted, value: TripFieldRules.deletedValue)
        }
    }

    // MARK: - The outbox

    /// Queues `value` for the field, inside the caller's transaction (seed 002 §3, and its gap):
    ///
    /// - A change not yet handed out folds: it keeps its base revision and takes the new value;
    ///   one that brings the field back to the server's value, with nothing in flight, goes away.
    /// - Otherwise a new row is queued on the field's confirmed revision; if a change of the field
    ///   is in flight, the new row's base moves to that change's revision when it is acknowledged.
    /// - A newer edit supersedes a change the server refused, and settles a conflict on the field.
    func queueChange(
        trip: TripID, item: ItemID?, field: TripField, value: String?,
        startedFrom: TripEditedValue.StartingValue? = nil
    ) throws {
        let key = item.storageKey
        try connection.run(
            "DELETE FROM outbox WHERE trip_id = ? AND item_id = ? AND field = ? AND rejected = 1",
            trip.description, key, field.name)
        if field != .deleted {
            try connection.run(
                "DELETE FROM conflicts WHERE trip_id = ? AND item_id = ? AND field = ?", trip.description, key,
                field.name)
        }
        let confirmed = try confirmedValue(trip: trip, item: key, field: field.name)
        // What the server holds: an absent tombstone is a live item.
        let serverValue = confirmed?.value ?? (field == .deleted ? TripFieldRules.restoredValue : nil)
        let serverRevision = confirmed?.revision ?? 0
        let ops = try fieldOps(trip: trip, item: key, field: field.name)
        let visible = ops.last.map(\.value) ?? serverValue
        if value == visible { return }
        if let unsent = ops.last, unsent.isUnsent {
            let inFlight = ops.contains { $0.requestID != nil }
            // Back to the server's value with nothing in flight: nothing to send, whatever the base.
            if !inFlight, value == serverValue {
                try connection.run("DELETE FROM outbox WHERE seq = ?", unsent.seq)
            } else {
                try connection.run("UPDATE outbox SET value = ? WHERE seq = ?", value, unsent.seq)
            }
            return
        }
        // A delete of an item is based on everything this device has seen of the item, so an edit
        // it has not seen comes back to its device to restore (TripMergeRule: `seenRevision`); so
        // is the first value of a field of an item the server has, so an item deleted and purged
        // meanwhile is not made again from that one field (the server answers the delete).
        let isItemDelete = field == .deleted && value == TripFieldRules.deletedValue
        var base =
            item != nil && (isItemDelete || confirmed == nil)
            ? try seenRevision(trip: trip, item: key) : serverRevision
        // So is a delete of the whole trip, on everything this device has seen of the trip: a
        // change it has not seen comes back to its author's device as the offer to restore it.
        if item == nil, isItemDelete {
            base = max(base, try seenRevision(trip: trip))
        }
        var baseValue = confirmed?.value
        // A restored edit whose field took another value since it was typed (pulled while the
        // item was deleted, never shown here) goes one revision below the server's: the server
        // answers a conflict for the person, or the notes merge on what the edit started from
        // (10-device seed 29: the restore replaced a start time this device never showed).
        if let startedFrom, let confirmed, confirmed.value != startedFrom.value {
            base = confirmed.revision - 1
            baseValue = startedFrom.value
        }
        try insertOp(
            trip: trip, item: key, field: field.name, value: value, baseRevision: base, baseValue: baseValue)
    }

    /// The newest confirmed revision of any field of the trip, items included: what this device
    /// has seen of it.
    func seenRevision(trip: TripID) throws -> Int {
        try connection.queryFirst(
            "SELECT COALESCE(MAX(revision), 0) FROM fields WHERE trip_id = ?", trip.description
        ) { $0.int(0) } ?? 0
    }

    /// The newest confirmed revision of any field of the item: what this device has seen of it.
    func seenRevision(trip: TripID, item: String) throws -> Int {
        try connection.queryFirst(
            "SELECT COALESCE(MAX(revision), 0) FROM fields WHERE trip_id = ? AND item_id = ?", trip.description,
            item
        ) { $0.int(0) } ?? 0
    }

    func insertOp(
        trip: TripID, item: String, field: String, value: String?, baseRevision: Int, baseValue: String?
    ) throws {
        try connection.run(
            """
            INSERT INTO outbox (op_id, trip_id, item_id, field, value, base_revision, base_value, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, UUID().uuidString.lowercased(), trip.description, item, field, value, baseRevision, baseValue,
            now().timeIntervalSinceReferenceDate)
    }

    /// The server's value of the field and its revision; nil when the device has none.
    func confirmedValue(trip: TripID, item: String, field: String) throws -> (value: String?, revision: Int)? {
        try connection.queryFirst(
            "SELECT value, revision FROM fields WHERE trip_id = ? AND item_id = ? AND field = ?", trip.description,
            item, field
        ) { ($0.optionalText(0), $0.int(1)) }
    }

    /// The field's outbox rows, oldest first.
    func fieldOps(trip: TripID, item: String, field: String) throws -> [TripsStoredOp] {
        try connection.query(
            TripsStoredOp.select + " WHERE trip_id = ? AND item_id = ? AND field = ? ORDER BY seq",
            bindings: [trip.description, item, field], map: TripsStoredOp.read)
    }

    // MARK: - Checks

    /// Throws `.unknownTrip` unless the trip is on this device and deleted neither here nor on
    /// the server.
    func requireLiveTrip(_ trip: TripID) throws {
        let listed =
            try connection.queryFirst("SELECT 1 FROM trips WHERE id = ? AND deleted = 0", trip.description) { _ in
                true
            } ?? false
        let deleted = try readFieldStates(trip, item: nil, tripOnly: true)[""]?[.deleted]?.value
        guard listed, deleted != TripFieldRules.deletedValue else {
            throw TripsDatabaseError(.unknownTrip, "no trip \(trip) on this device")
        }
    }

    /// The item's trip, when the item is on this device and not deleted.
    func requireLiveItem(_ item: ItemID) throws -> TripID {
        guard let trip = try tripOf(item) else {
            throw TripsDatabaseError(.unknownItem, "no item \(item) on this device")
        }
        try requireLiveTrip(trip)
        let deleted = try readFieldStates(trip, item: item)[item.description]?[.deleted]?.value
        guard deleted != TripFieldRules.deletedValue else {
            throw TripsDatabaseError(.deletedItem, "item \(item) is deleted; restore it first")
        }
        return trip
    }
}
