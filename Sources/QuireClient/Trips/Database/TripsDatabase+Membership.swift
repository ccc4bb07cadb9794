import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Membership: leaving a trip, and the public keys of the people it is shared with

extension TripsDatabase {
    /// A trip this device deleted because the account is no longer a member, and how many of
    /// its changes were never sent (they are gone with it).
    public struct Removal: Sendable, Hashable, Codable {
        public var trip: TripID
        public var title: String
        public var unsent: Int

        /// The warning a person reads: "3 changes to 'Lisbon 2027' haven't synced and will be lost".
        public var warning: String {
            let what = unsent == 1 ? "1 change" : "\(unsent) changes"
            let have = unsent == 1 ? "hasn't" : "haven't"
            let name = title.isEmpty ? "trip \(trip.short)" : "'\(title)'"
            return unsent == 0
                ? "you are no longer a member of \(name); its copy on this device was deleted"
                : "\(what) to \(name) \(have) synced and will be lost: you are no longer a member"
        }
    }

    /// Whether the server has the trip (this device created it there, or the feed listed it).
    public func isOnServer(_ trip: TripID) throws -> Bool {
        try connection.queryFirst("SELECT on_server FROM trips WHERE id = ?", trip.description) { $0.int(0) == 1 }
            ?? false
    }

    /// The changes to `trip` this device holds that the server never took (waiting or refused).
    public func unsentChanges(of trip: TripID) throws -> Int {
        try connection.queryFirst("SELECT COUNT(*) FROM outbox WHERE trip_id = ?", trip.description) { $0.int(0) } ?? 0
    }

    /// Deletes this device's copy of `trip` (values, waiting changes, conflicts), returning what
    /// was lost; nil when the device has no such trip.
    @discardableResult
    public func removeLocalCopy(of trip: TripID) throws -> Removal? {
        try write { try removeLocalCopyInTransaction(trip) }
    }

    func removeLocalCopyInTransaction(_ trip: TripID) throws -> Removal? {
        guard try connection.queryFirst("SELECT 1 FROM trips WHERE id = ?", trip.description, map: { _ in true }) != nil
        else { return nil }
        let fields = try readFieldStates(trip, item: nil, tripOnly: true)[""] ?? [:]
        let title = TripRecord(id: trip, role: "", fields: fields, items: []).title
        let removal = Removal(trip: trip, title: title, unsent: try unsentChanges(of: trip))
        try connection.run("DELETE FROM trips WHERE id = ?", trip.description)
        return removal
    }

    /// The trip's members and their roles as its log last showed this device (the server's
    /// `member.<username>` entries; owners first, then by name). Empty for a trip never shared.
    public func members(of trip: TripID) throws -> [(username: String, role: String)] {
        let prefix = WireRoutes.memberFieldPrefix
        let rank = ["owner": 0, "editor": 1, "viewer": 2]
        return try connection.query(
            "SELECT field, value FROM fields WHERE trip_id = ? AND item_id = '' AND field LIKE ? AND value IS NOT NULL",
            trip.description, prefix + "%"
        ) { (String($0.text(0).dropFirst(prefix.count)), $0.text(1)) }
        .sorted { (rank[$0.1] ?? 3, $0.0) < (rank[$1.1] ?? 3, $1.0) }
    }

    // MARK: - Known keys

    /// What this device knows of a person's public key.
    public enum KeyCheck: Sendable, Equatable {
        /// Seen for the first time, and now remembered.
        case new
        /// The key this device saw before.
        case known
        /// Not the key this device saw before: someone may be impersonating them, or they set up
        /// a new key. Never taken silently; `remembered` is the one seen first.
        case changed(remembered: String)
    }

    /// Checks `publicKey` against the one remembered for `username`, remembering it when there
    /// was none. A changed key stays unremembered until ``trustKey(_:of:)``.
    public func checkKey(_ publicKey: String, of username: String) throws -> KeyCheck {
        try write {
            if let remembered = try connection.queryFirst(
                "SELECT public_key FROM known_keys WHERE username = ?", username, map: { $0.text(0) })
            {
                return remembered == publicKey ? .known : .changed(remembered: remembered)
            }
            try connection.run(
                "INSERT INTO known_keys (username, public_key, seen_at) VALUES (?, ?, ?)", username, publicKey,
                now().timeIntervalSinceReferenceDate)
            return .new
        }
    }

    /// Takes `publicKey` as `username`'s key from now on (after the person compared fingerprints).
    public func trustKey(_ publicKey: String, of username: String) throws {
        try write {
            try connection.run(
                """
                INSERT INTO known_keys (username, public_key, seen_at) VALUES (?, ?, ?)
                ON CONFLICT (username) DO UPDATE SET public_key = excluded.public_key, seen_at = excluded.seen_at
                """, username, publicKey, now().timeIntervalSinceReferenceDate)
        }
    }
}
