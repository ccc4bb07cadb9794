import Foundation
import QuireSQLite
import QuireTrips

// MARK: - Key work a trip waits for before it sends anything

extension TripsDatabase {
    /// Work on a trip's key that must be done before this owner's device sends into the trip
    /// (trips migration 11, `key_work_due`).
    package enum KeyWork: String, Sendable, CaseIterable {
        /// The server showed signs of a restore from a backup (its key behind this device's, or
        /// its history forgotten): removals this device saw may have to be made again.
        case removalCheck = "removal_check"
        /// A member left since the key last rotated: the server asks an owner to rotate it.
        case rotation
    }

    /// Notes that `work` waits on `trip` (nothing, when this device holds no such trip).
    package func markKeyWorkDue(_ trip: TripID, _ work: KeyWork) throws {
        try connection.run(
            "INSERT OR IGNORE INTO key_work_due (trip_id, work) SELECT id, ? FROM trips WHERE id = ?", work.rawValue,
            trip.description)
    }

    /// What the feed's entry for `trip` says of an owner's key work, in the transaction that
    /// applies it: a key gone back or replaced (a server restored from a backup) leaves a removal
    /// check due, and a rotation is owed while the server asks for one.
    func noteKeyWorkInTransaction(_ trip: FeedTrip) throws {
        guard trip.role == TripMemberRole.owner.rawValue else { return }
        if trip.rewindsHeldKey || trip.replacesHeldKey { try markKeyWorkDue(trip.id, .removalCheck) }
        if trip.rekeyDue {
            try markKeyWorkDue(trip.id, .rotation)
        } else {
            try keyWorkDone(trip.id, .rotation)
        }
    }

    /// The work waiting on `trip`.
    package func keyWork(on trip: TripID) throws -> Set<KeyWork> {
        Set(
            try connection.query("SELECT work FROM key_work_due WHERE trip_id = ?", trip.description) {
                KeyWork(rawValue: $0.text(0))
            }.compactMap { $0 })
    }

    /// The trips on which `work` waits.
    package func keyWorkDue(_ work: KeyWork) throws -> Set<TripID> {
        Set(
            try connection.query("SELECT trip_id FROM key_work_due WHERE work = ?", work.rawValue) {
                TripID($0.text(0))
            }.compactMap { $0 })
    }

    /// Ends `work` on `trip`: it was done, or there was nothing this device could do.
    package func keyWorkDone(_ trip: TripID, _ work: KeyWork) throws {
        try connection.run(
            "DELETE FROM key_work_due WHERE trip_id = ? AND work = ?", trip.description, work.rawValue)
    }
}
