import Foundation
import QuireSQLite
import QuireTrips

// MARK: - Reading: what screens show

extension TripsDatabase {
    /// The live trips (not deleted here or on the server), by start date (undated last), then
    /// title and id.
    public func trips() throws -> [TripSummary] {
        try readTrips()
    }

    /// One trip with its live items in order; nil when this device has no such trip, or it is
    /// deleted.
    public func trip(_ id: TripID) throws -> TripRecord? {
        try readTrip(id)
    }

    /// One item, deleted or not; nil when this device has never had it.
    public func item(_ id: ItemID) throws -> TripItemRecord? {
        guard let trip = try tripOf(id) else { return nil }
        let states = try readFieldStates(trip, item: id)
        return TripItemRecord(id: id, trip: trip, fields: states[id.description] ?? [:])
    }

    /// The trip an item belongs to; nil for an item this device has never had.
    public func tripOf(_ item: ItemID) throws -> TripID? {
        try connection.queryFirst("SELECT trip_id FROM items WHERE id = ?", item.description) {
            TripID($0.text(0))
        } ?? nil
    }

    /// The conflicts waiting for the person, of one trip or of all, oldest first; then each trip
    /// deleted on another device while this one changed it (``TripFieldConflict/isTripDeletedWhileChanged``),
    /// whose own conflicts wait behind that offer.
    public func conflicts(in trip: TripID? = nil) throws -> [TripFieldConflict] {
        let rows = try connection.query(
            Self.conflictSelect
                + " WHERE trip_id NOT IN (SELECT id FROM trips WHERE deleted = 1)"
                + (trip == nil ? "" : " AND trip_id = ?") + " ORDER BY created_at, item_id, field",
            bindings: trip.map { [$0.description] } ?? [], map: Self.conflict)
        return rows.compactMap { $0 } + (try deletedTripOffers(in: trip))
    }

    /// True when the database holds any trip, deleted ones and waiting changes included.
    public func holdsTrips() throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM trips LIMIT 1") { _ in true } ?? false
    }

    // MARK: - Building the records

    func readTrips() throws -> [TripSummary] {
        let rows = try connection.query("SELECT id, role FROM trips WHERE deleted = 0") {
            (TripID($0.text(0)), $0.text(1))
        }
        var summaries: [TripSummary] = []
        for case let (id?, role) in rows {
            let fields = try readFieldStates(id, item: nil, tripOnly: true)[""] ?? [:]
            let record = TripRecord(id: id, role: role, fields: fields, items: [])
            guard !record.isDeleted else { continue }
            let (pending, conflicts) =
                try connection.queryFirst(
                    """
                    SELECT (SELECT COUNT(*) FROM outbox WHERE trip_id = ?1 AND rejected = 0),
                           (SELECT COUNT(*) FROM conflicts WHERE trip_id = ?1)
                    """, id.description
                ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
            summaries.append(
                TripSummary(
                    id: id, title: record.title, startDate: record.startDate, endDate: record.endDate, role: role,
                    itemCount: try liveItemCount(id), pendingCount: pending, conflictCount: conflicts))
        }
        return summaries.sorted {
            ($0.startDate.map { "0\($0)" } ?? "1", $0.title, $0.id.description)
                < ($1.startDate.map { "0\($0)" } ?? "1", $1.title, $1.id.description)
        }
    }

    func readTrip(_ id: TripID) throws -> TripRecord? {
        guard
            let role = try connection.queryFirst(
                "SELECT role FROM trips WHERE id = ? AND deleted = 0", id.description, map: { $0.text(0) })
        else { return nil }
        let states = try readFieldStates(id, item: nil)
        let itemIDs = try connection.query(
            "SELECT id FROM items WHERE trip_id = ?", id.description, map: { ItemID($0.text(0)) })
        let items = itemIDs.compactMap { $0 }.map {
            TripItemRecord(id: $0, trip: id, fields: states[$0.description] ?? [:])
        }
        let record = TripRecord(
            id: id, role: role, fields: states[""] ?? [:],
            items: items.filter { !$0.isDeleted }.sorted(by: TripItemRecord.ordered),
            deletedItemsWithConflicts: items.filter { $0.isDeleted && $0.hasConflict }.sorted(
                by: TripItemRecord.ordered))
        return record.isDeleted ? nil : record
    }

    /// The visible state of every field of the trip (or of one item, or of the trip's own fields),
    /// keyed by item key (`""` for the trip): the confirmed value, the newest waiting change on
    /// top, and any conflict.
    func readFieldStates(_ trip: TripID, item: ItemID?, tripOnly: Bool = false) throws
        -> [String: [TripField: TripFieldState]]
    {
        var filter = ""
        var bindings: [SQLiteBindable] = [trip.description]
        if tripOnly {
            filter = " AND item_id = ''"
        } else if let item {
            filter = " AND item_id = ?"
            bindings.append(item.description)
        }
        var states: [String: [TripField: TripFieldState]] = [:]
        let confirmed = try connection.query(
            "SELECT item_id, field, value, revision FROM fields WHERE trip_id = ?" + filter, bindings: bindings
        ) { ($0.text(0), $0.text(1), $0.optionalText(2), $0.int(3)) }
        for (itemKey, name, value, revision) in confirmed {
            guard let field = TripField(rawValue: name) else { continue }
            states[itemKey, default: [:]][field] = TripFieldState(value: value, revision: revision)
        }
        let ops = try connection.query(
            TripsStoredOp.select + " WHERE trip_id = ?" + filter + " ORDER BY seq", bindings: bindings,
            map: TripsStoredOp.read)
        for op in ops {
            guard let field = TripField(rawValue: op.field) else { continue }
            var state = states[op.item.storageKey]?[field] ?? TripFieldState(value: nil)
            state.value = op.value
            if let reason = op.rejectedReason {
                state.rejectedReason = reason
            } else {
                state.isPending = true
                state.rejectedReason = nil
            }
            states[op.item.storageKey, default: [:]][field] = state
        }
        let conflicts = try connection.query(
            Self.conflictSelect + " WHERE trip_id = ?" + filter, bindings: bindings, map: Self.conflict)
        for case let conflict? in conflicts {
            let key = conflict.item.storageKey
            var state = states[key]?[conflict.field] ?? TripFieldState(value: nil)
            state.conflict = conflict
            states[key, default: [:]][conflict.field] = state
        }
        return states
    }

    /// Items of the trip whose visible `deleted` is not `true`.
    private func liveItemCount(_ trip: TripID) throws -> Int {
        try connection.queryFirst(
            """
            SELECT COUNT(*) FROM items i WHERE i.trip_id = ?1 AND COALESCE(
                (SELECT value FROM outbox o WHERE o.trip_id = ?1 AND o.item_id = i.id AND o.field = 'deleted'
                 ORDER BY seq DESC LIMIT 1),
                (SELECT value FROM fields f WHERE f.trip_id = ?1 AND f.item_id = i.id AND f.field = 'deleted'),
                'false') != 'true'
            """, trip.description
        ) { $0.int(0) } ?? 0
    }

    static let conflictSelect = """
        SELECT trip_id, item_id, field, mine, theirs, their_revision, edited_values FROM conflicts
        """

    /// A conflict row; nil for a field this device does not know.
    static func conflict(_ row: SQLiteRow) throws -> TripFieldConflict? {
        guard let trip = TripID(row.text(0)), let field = TripField(rawValue: row.text(2)) else { return nil }
        var edits: [TripField: TripEditedValue]?
        var photoEdits: [String: TripEditedValue] = [:]
        if let json = row.optionalText(6) {
            let named = try JSONDecoder().decode([String: TripEditedValue].self, from: Data(json.utf8))
            edits = Dictionary(
                uniqueKeysWithValues: named.compactMap { name, edit in TripField(rawValue: name).map { ($0, edit) } })
            photoEdits = named.filter { Self.photoID(ofField: $0.key) != nil }
        }
        return TripFieldConflict(
            trip: trip, item: ItemID(row.text(1)), field: field, mine: row.optionalText(3),
            theirs: row.optionalText(4), theirRevision: row.int(5), edits: edits, photoEdits: photoEdits)
    }

    // MARK: - Counts and the status

    /// Waiting field changes and photos waiting to upload: the sync controller's "something was
    /// edited" trigger, so adding a photo starts a sync as an edit does.
    func readPendingCount() throws -> Int {
        try connection.queryFirst(
            """
            SELECT (SELECT COUNT(*) FROM outbox WHERE rejected = 0)
                 + (SELECT COUNT(*) FROM media
                    WHERE state IN ('queued', 'uploading', 'uploaded', 'removed') OR \(Self.removalConfirmed))
            """
        ) { $0.int(0) } ?? 0
    }

    package func readStatus() throws -> TripsStatusRecord {
        let (pending, rejected, stuck) =
            try connection.queryFirst(
                """
                SELECT COALESCE(SUM(rejected = 0), 0), COALESCE(SUM(rejected = 1), 0),
                       COALESCE(SUM(rejected = 0 AND attempts >= \(ChangeRetry.stuckAfterAttempts)), 0)
                FROM outbox
                """
            ) { ($0.int(0), $0.int(1), $0.int(2)) } ?? (0, 0, 0)
        let conflicts =
            try connection.queryFirst(
                "SELECT COUNT(*) FROM conflicts WHERE trip_id NOT IN (SELECT id FROM trips WHERE deleted = 1)"
            ) { $0.int(0) } ?? 0
        // A deleted trip's changes are its one offer, neither refused nor waiting to be sent.
        let ofDeletedTrips = try changesOfDeletedTripsCount()
        return TripsStatusRecord(
            run: try runRecord(), pendingCount: pending - ofDeletedTrips.waiting,
            conflictCount: conflicts + (try deletedTripOffers().count),
            rejectedCount: rejected - ofDeletedTrips.refused, stuckCount: stuck)
    }

    // MARK: - Meta

    enum MetaKey: String {
        case account
        case run
    }

    func readMeta(_ key: MetaKey) throws -> String? {
        try connection.queryFirst("SELECT value FROM meta WHERE key = ?", key.rawValue) { $0.text(0) }
    }

    func writeMeta(_ key: MetaKey, _ value: String?) throws {
        guard let value else {
            try connection.run("DELETE FROM meta WHERE key = ?", key.rawValue)
            return
        }
        try connection.run(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key.rawValue, value)
    }
}
