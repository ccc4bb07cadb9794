import Foundation
import QuireSQLite
import QuireTrips
import QuireWire

// MARK: - Departures: a trip left stays left across a server restored from before the leave

extension TripsDatabase {
    /// The membership a leave ended: the trip's log entry of the account, and its revision then.
    package struct Departure: Sendable, Equatable {
        package var memberField: String
        package var joinRevision: Int
    }

    /// Deletes this device's copy of `trip` as `username` leaves it, remembering the membership
    /// the leave ended (``Departure``). Returns what was lost with it; nil when there was no copy.
    @discardableResult
    public func removeLocalCopy(leaving trip: TripID, as username: String) throws -> Removal? {
        try write {
            try rememberDeparture(from: trip, as: username)
            return try removeLocalCopyInTransaction(trip)
        }
    }

    /// Remembers the membership of `username` in `trip` that a leave or a removal ends: its log
    /// entry and that entry's revision as this device holds it. Inside the caller's transaction,
    /// before the trip's copy goes.
    func rememberDeparture(from trip: TripID, as username: String) throws {
        let field = WireRoutes.memberFieldPrefix + username.lowercased()
        let revision =
            try connection.queryFirst(
                "SELECT COALESCE(seen_revision, revision) FROM fields WHERE trip_id = ? AND item_id = '' AND field = ?",
                trip.description, field
            ) { $0.int(0) } ?? 0
        try connection.run(
            """
            INSERT INTO departed_trips (trip_id, member_field, join_revision) VALUES (?, ?, ?)
            ON CONFLICT (trip_id) DO UPDATE SET
                member_field = excluded.member_field, join_revision = excluded.join_revision
            """, trip.description, field, revision)
    }

    /// The membership this account's leave of `trip` ended; nil when it never left it (or joined
    /// it again since).
    package func departure(of trip: TripID) throws -> Departure? {
        try connection.queryFirst(
            "SELECT member_field, join_revision FROM departed_trips WHERE trip_id = ?", trip.description
        ) { Departure(memberField: $0.text(0), joinRevision: $0.int(1)) }
    }

    /// Forgets that the account left `trip`: it joined again.
    public func forgetDeparture(_ trip: TripID) throws {
        try write { try connection.run("DELETE FROM departed_trips WHERE trip_id = ?", trip.description) }
    }
}
