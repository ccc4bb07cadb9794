import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Removals: a member removed stays removed across a server restored from before it

extension TripsDatabase {
    /// Remembers the memberships `fields` end: a pulled `member.<username>` entry without a value.
    /// The server names the entry it ended (its `seenRevision`); from an older server, the entry
    /// this device holds. Inside the caller's transaction, before the fields are stored.
    func rememberEndedMemberships(in trip: TripID, _ fields: [PulledField]) throws {
        for field in fields where field.item == nil && field.value == nil {
            guard field.field.hasPrefix(WireRoutes.memberFieldPrefix) else { continue }
            guard let ended = field.seenRevision, ended < field.revision else {
                try rememberEndedMembership(trip, field: field.field, before: field.revision)
                continue
            }
            try remember(field.field, of: trip, endedAt: ended)
        }
    }

    private func remember(_ memberField: String, of trip: TripID, endedAt revision: Int) throws {
        try connection.run(
            """
            INSERT INTO ended_memberships (trip_id, member_field, join_revision) VALUES (?, ?, ?)
            ON CONFLICT (trip_id, member_field) DO UPDATE SET join_revision = excluded.join_revision
            """, trip.description, memberField, revision)
    }

    /// Remembers that this device removed `members` from `trip`, each with the revision of its
    /// entry the server listed (else the one held here): the next pull of the log would say so
    /// too, but a restore may come first.
    package func rememberRemovals(from trip: TripID, of members: [(username: String, entryRevision: Int?)]) throws {
        try write {
            for member in members {
                let field = WireRoutes.memberFieldPrefix + member.username.lowercased()
                guard let revision = member.entryRevision else {
                    try rememberEndedMembership(trip, field: field)
                    continue
                }
                try remember(field, of: trip, endedAt: revision)
            }
        }
    }

    /// The membership entries of `trip` this device saw end: each a departure's ``Departure``
    /// (the entry and its revision then).
    package func endedMemberships(of trip: TripID) throws -> [Departure] {
        try connection.query(
            "SELECT member_field, join_revision FROM ended_memberships WHERE trip_id = ? ORDER BY member_field",
            trip.description
        ) { Departure(memberField: $0.text(0), joinRevision: $0.int(1)) }
    }

    /// Remembers the entry `field` of `trip` this device holds, when it has a value and is older
    /// than `revision` (the entry that ended it).
    /// The values of `trip` this device pulled from members whose membership it saw end, to send
    /// again after a restore that forgot them: their devices deleted their copies, so nobody else
    /// will. Not their deletes (an item a restore brings back loses no text), and nothing from a
    /// viewer's device, which cannot write. Read before a snapshot replaces the fields.
    func departedMembersValues(in trip: TripID, role: String) throws -> [OwnWrite] {
        guard role == "owner" || role == "editor" else { return [] }
        let prefix = WireRoutes.memberFieldPrefix
        let departed = try endedMemberships(of: trip).map { String($0.memberField.dropFirst(prefix.count)) }
        guard !departed.isEmpty else { return [] }
        return try connection.query(
            """
            SELECT item_id, field, value, revision FROM fields
            WHERE trip_id = ? AND mine = 0 AND field <> 'deleted' AND value IS NOT NULL
              AND author IN (SELECT value FROM json_each(?))
            """, trip.description, String(decoding: try JSONEncoder().encode(departed), as: UTF8.self)
        ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
    }

    /// This account's role in `trip` as this device last learned it; nil without a copy.
    package func role(of trip: TripID) throws -> String? {
        try connection.queryFirst("SELECT role FROM trips WHERE id = ?", trip.description) { $0.text(0) }
    }

    private func rememberEndedMembership(_ trip: TripID, field: String, before revision: Int = .max) throws {
        try connection.run(
            """
            INSERT INTO ended_memberships (trip_id, member_field, join_revision)
            SELECT trip_id, field, revision FROM fields
            WHERE trip_id = ? AND item_id = '' AND field = ? AND value IS NOT NULL AND revision < ?
            ON CONFLICT (trip_id, member_field) DO UPDATE SET join_revision = excluded.join_revision
            """, trip.description, field, revision)
    }
}
