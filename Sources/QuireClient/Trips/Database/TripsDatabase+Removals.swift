import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Removals: a member removed stays removed across a server restored from before it

extension TripsDatabase {
    /// Remembers the memberships `fields` end: a pulled `member.<username>` entry without a value.
    /// The server names the join that started the membership (its `seenRevision`); from an older
    /// server, the entry this device holds. Inside the caller's transaction, before the fields are stored.
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

    /// This account's role in `trip` as this device last learned it; nil without a copy.
    package func role(of trip: TripID) throws -> String? {
        try connection.queryFirst("SELECT role FROM trips WHERE id = ?", trip.description) { $0.text(0) }
    }

    /// Remembers the membership of entry `field` of `trip` this device holds (the join that
    /// started it), when it has a value and is older than `revision` (the entry that ended it).
    private func rememberEndedMembership(_ trip: TripID, field: String, before revision: Int = .max) throws {
        try connection.run(
            """
            INSERT INTO ended_memberships (trip_id, member_field, join_revision)
            SELECT trip_id, field, COALESCE(seen_revision, revision) FROM fields
            WHERE trip_id = ? AND item_id = '' AND field = ? AND value IS NOT NULL AND revision < ?
            ON CONFLICT (trip_id, member_field) DO UPDATE SET join_revision = excluded.join_revision
            """, trip.description, field, revision)
    }
}
