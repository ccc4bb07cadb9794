import Foundation
import QuireDomain
import QuireSQLite

// MARK: - SyncRecords: the run record, device labels and sync metadata

extension NotesDatabase {
    // MARK: Run record

    /// The engine's last stored record of its runs.
    public func runRecord() throws -> SyncRunRecord {
        try readRunRecord()
    }

    /// Stores the engine's record of its runs in the status row and publishes the status.
    public func recordRun(_ record: SyncRunRecord) throws {
        try bookkeepingWrite { touched in
            try connection.run(
                """
                UPDATE sync_status SET last_synced_at = ?, is_syncing = ?, last_run_failed = ?,
                    last_error = ?, undecryptable_count = ?, last_failure_kind = ?, metrics = ?
                WHERE id = 1
                """, record.lastSyncedAt?.timeIntervalSinceReferenceDate, record.isSyncing,
                record.lastRunFailed, record.lastError, record.undecryptableCount,
                record.lastFailureKind?.rawValue, record.metrics.json)
            touched.insert(.status)
        }
    }

    // MARK: Where texts were typed

    /// This device's label: a random id made at the first ask and kept, and its name (the host's
    /// name until ``setDeviceName(_:)``). The engine stamps it into every payload it seals.
    public func deviceLabel() throws -> DeviceLabel {
        DeviceLabel(
            id: try ownDeviceID(),
            name: try readMeta(.deviceName) ?? ProcessInfo.processInfo.hostName)
    }

    /// The name other devices show for texts typed here ("typed on laptop").
    public func setDeviceName(_ name: String) throws {
        try bookkeepingWrite { _ in try writeMeta(.deviceName, name) }
    }

    func ownDeviceID() throws -> String {
        if let id = try readMeta(.deviceID) { return id }
        let id = UUID().uuidString.lowercased()
        try writeMeta(.deviceID, id)
        return id
    }

    /// The `typed_on_*` columns for a text labelled `label`: NULL for this device's own text; a
    /// text from a payload without a label was typed on another device nobody named.
    static func typedOnColumns(_ label: DeviceLabel?, ownDevice: String) -> (id: String?, name: String?) {
        guard let label else { return ("", "another device") }
        return label.id == ownDevice ? (nil, nil) : (label.id, label.name)
    }

    // MARK: - Helpers

    enum MetaKey: String {
        case cursor
        /// The newest acknowledged write's position a pull verified (``ackedPositions()``).
        case ackedPosition = "acked_position"
        /// Positions of writes acknowledged since, newline-separated, oldest first.
        case unverifiedPositions = "unverified_positions"
        case account
        /// Present from `beginFullResync` until `finishFullResync`.
        case resyncing
        case deviceID = "device_id"
        case deviceName = "device_name"
    }

    func readMeta(_ key: MetaKey) throws -> String? {
        try connection.queryFirst("SELECT value FROM sync_meta WHERE key = ?", key.rawValue) {
            $0.text(0)
        }
    }

    func writeMeta(_ key: MetaKey, _ value: String) throws {
        try connection.run(
            """
            INSERT INTO sync_meta (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, key.rawValue, value)
    }

    /// The pending change, or `.unknownChange` (completed or dropped already).
    func requireChange(_ id: ChangeID) throws -> StoredChange {
        guard let stored = try storedChange(id) else {
            throw NotesDatabaseError(.unknownChange, "no pending change \(id)")
        }
        return stored
    }

    static func sentChange(_ stored: StoredChange) -> SentChange {
        SentChange(
            id: stored.changeID, noteID: stored.noteID,
            operation: stored.content.map(SentChange.Operation.put) ?? .delete,
            baseVersion: stored.baseVersion, baseVersionTag: stored.baseTag,
            createdAt: stored.createdAt, payload: stored.payload)
    }
}
