import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - A departed member's values, after a server restored from a backup

extension TripsDatabase {
    /// The values of `trip` this device pulled from members whose membership it saw end, to send
    /// again after a restore that forgot them: their devices deleted their copies, so nobody else
    /// will. Not their deletes (an item a restore brings back loses no text), and nothing from a
    /// viewer's device, which cannot write. Read before a snapshot replaces the fields.
    func departedMembersValues(in trip: TripID, role: String) throws -> [OwnWrite] {
        guard Self.canWrite(role) else { return [] }
        let departed = try departedUsernames(in: trip)
        guard !departed.isEmpty else { return [] }
        return try connection.query(
            """
            SELECT item_id, field, value, revision FROM fields
            WHERE trip_id = ? AND mine = 0 AND field <> 'deleted' AND value IS NOT NULL
              AND author IN (SELECT value FROM json_each(?))
            """, trip.description, try Self.jsonList(departed)
        ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
    }

    /// Keeps aside the values of other members that `snapshot`, from a server that forgot its
    /// history, no longer holds: their authors' devices send them again, unless an author has
    /// left since (its device leaves the restored server's trip again, and sends nothing). Each
    /// waits here until its field is pulled again (``forgetSetAsideValues(in:_:)``) or its
    /// author's departure arrives (``sendSetAsideValuesOfDeparted(in:)``). Before the snapshot
    /// replaces the fields, inside the caller's transaction.
    func setAsideForgottenValues(in trip: TripID, snapshot: [PulledField]) throws {
        let held = Dictionary(
            snapshot.map { ($0.item.storageKey + "/" + $0.field, $0.value) }, uniquingKeysWith: { first, _ in first })
        // A departed member's values are queued at once (``departedMembersValues(in:role:)``).
        let values = try connection.query(
            """
            SELECT item_id, field, value, revision, author FROM fields
            WHERE trip_id = ? AND mine = 0 AND field <> 'deleted' AND value IS NOT NULL AND author IS NOT NULL
              AND author NOT IN (SELECT value FROM json_each(?))
            """, trip.description, try Self.jsonList(try departedUsernames(in: trip))
        ) {
            (
                write: OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)),
                author: $0.text(4)
            )
        }
        for (write, author) in values where held[write.item + "/" + write.field] != write.value {
            try connection.run(
                """
                INSERT INTO set_aside_values (trip_id, item_id, field, value, revision, author)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (trip_id, item_id, field) DO UPDATE SET
                    value = excluded.value, revision = excluded.revision, author = excluded.author
                """, trip.description, write.item, write.field, write.value, write.revision, author)
        }
    }

    /// Forgets the values set aside that `fields` brings back: their authors sent them again.
    /// (One a newer value replaced on the server stays: nobody who wrote that had seen it.)
    /// Inside the caller's transaction.
    func forgetSetAsideValues(in trip: TripID, _ fields: [PulledField]) throws {
        for field in fields where field.value != nil {
            try connection.run(
                "DELETE FROM set_aside_values WHERE trip_id = ? AND item_id = ? AND field = ? AND value = ?",
                trip.description, field.item.storageKey, field.field, field.value)
        }
    }

    /// Queues again the values set aside of members whose membership this device has now seen
    /// end, against the values it holds now (``resendForgottenWrites(_:of:own:)``), and forgets
    /// them. Inside the caller's transaction, after the pulled fields are stored.
    func sendSetAsideValuesOfDeparted(in trip: TripID) throws {
        let departed = try departedUsernames(in: trip)
        guard !departed.isEmpty else { return }
        let list = try Self.jsonList(departed)
        let role = try role(of: trip) ?? ""
        if Self.canWrite(role) {
            let waiting = try connection.query(
                """
                SELECT item_id, field, value, revision FROM set_aside_values
                WHERE trip_id = ? AND author IN (SELECT value FROM json_each(?))
                """, trip.description, list
            ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
            if !waiting.isEmpty {
                let current = try connection.query(
                    "SELECT item_id, field, value, revision FROM fields WHERE trip_id = ?", trip.description
                ) {
                    PulledField(
                        item: ItemID($0.text(0)), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3))
                }
                try resendForgottenWrites(current, of: trip, own: waiting)
            }
        }
        try connection.run(
            "DELETE FROM set_aside_values WHERE trip_id = ? AND author IN (SELECT value FROM json_each(?))",
            trip.description, list)
    }

    private func departedUsernames(in trip: TripID) throws -> [String] {
        let prefix = WireRoutes.memberFieldPrefix
        return try endedMemberships(of: trip).map { String($0.memberField.dropFirst(prefix.count)) }
    }

    private static func canWrite(_ role: String) -> Bool {
        TripMemberRole(rawValue: role).map { $0 != .viewer } ?? false
    }

    private static func jsonList(_ names: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(names), as: UTF8.self)
    }
}
