import Foundation
import QuireTrips

// MARK: - Forgotten writes: a server restored from a backup

extension TripsDatabase {
    /// The server answered that it has no such trip, though this device's account owns it (the
    /// server was restored from a backup from before the trip was made, and nobody else can
    /// remove an owner): the trip is made again at the next push, with every value this device
    /// holds. Each confirmed value without a waiting change is queued again, its cursor and
    /// positions are forgotten. Returns false, changing nothing, for a trip this account does not
    /// own (it was taken away: its changes stay refused).
    package func serverForgotTrip(_ trip: TripID) throws -> Bool {
        try write {
            let role = try connection.queryFirst("SELECT role FROM trips WHERE id = ?", trip.description) {
                $0.text(0)
            }
            guard role == "owner" else { return false }
            let held = try connection.query(
                "SELECT item_id, field, value, revision FROM fields WHERE trip_id = ?", trip.description
            ) { OwnWrite(item: $0.text(0), field: $0.text(1), value: $0.optionalText(2), revision: $0.int(3)) }
            try resendForgottenWrites([], of: trip, own: held)
            try connection.run(
                """
                UPDATE trips SET on_server = 0, cursor = NULL, known_position = NULL,
                    pulled_revision = 0, feed_revision = 0
                WHERE id = ?
                """, trip.description)
            try connection.run("UPDATE fields SET mine = 0 WHERE trip_id = ?", trip.description)
            return true
        }
    }

    /// After a snapshot from a server that forgot this device's writes (restored from a backup)
    /// replaced the trip's confirmed values: each of this device's acknowledged writes the
    /// snapshot does not hold is queued again where the snapshot holds nothing or the value the
    /// write replaced, and is a conflict for the person where it holds another value (written
    /// since by a device that never saw this write). Inside the caller's transaction.
    func resendForgottenWrites(_ snapshot: [PulledField], of trip: TripID, own: [OwnWrite]) throws {
        let held = Dictionary(
            snapshot.map { ($0.item.storageKey + "/" + $0.field, $0) },
            uniquingKeysWith: { $0.revision > $1.revision ? $0 : $1 })
        for write in own {
            let current = held[write.item + "/" + write.field]
            if let current, current.value == write.value { continue }
            guard try fieldOps(trip: trip, item: write.item, field: write.field).isEmpty else { continue }
            // Revisions of two histories cannot be compared; values can. The server holds nothing
            // there, or the value the write replaced: send it again. Anything else was written in
            // the new history by a device that never saw this write: the person chooses.
            guard let current, current.value != write.replaced else {
                try insertOp(
                    trip: trip, item: write.item, field: write.field, value: write.value,
                    baseRevision: max(write.revision, current?.revision ?? 0), baseValue: current?.value)
                continue
            }
            try storeConflict(
                trip: trip, item: write.item, field: write.field, mine: write.value, theirs: current.value,
                theirRevision: current.revision, edited: nil)
        }
    }
}

// MARK: - Positions to check

extension TripsDatabase {
    /// The positions of the trip's acknowledged requests that no pull has checked yet.
    package func uncheckedPositions(_ trip: TripID) throws -> [String] {
        Self.positions(
            try connection.queryFirst("SELECT known_position FROM trips WHERE id = ?", trip.description) {
                $0.optionalText(0)
            } ?? nil)
    }

    /// The positions a `known_position` column holds.
    static func positions(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map(String.init)
    }
}
