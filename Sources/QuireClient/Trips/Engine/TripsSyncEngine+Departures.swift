import Foundation
import QuireTrips
import QuireWire

// MARK: - A trip this account left, listed again by a restored server

extension TripsSyncEngine {
    /// Whether `snapshot`, of a trip this account left, lists the membership the leave ended: a
    /// server restored from a backup taken before the leave. The device then leaves again and
    /// takes nothing from it (its copy, made by the feed, goes). A newer membership entry is a
    /// join since: the departure is forgotten and the trip is pulled as any other.
    func leftAgain(_ trip: TripID, snapshot: TripSnapshotDTO) async throws -> Bool {
        guard let departure = try await database.departure(of: trip) else { return false }
        let entry = snapshot.fields.first { $0.item == nil && $0.field == departure.memberField }
        guard let entry, entry.value != nil, entry.revision <= departure.joinRevision else {
            try await database.forgetDeparture(trip)
            return false
        }
        try await database.removeLocalCopy(of: trip)
        do {
            try await keySource?.leaveAgain(trip)
        } catch let error as NotesAPIError where SendDisposition(error) == .stopRun {
            throw error
        } catch {
            // Tried again the next time the feed lists the trip.
        }
        return true
    }
}
