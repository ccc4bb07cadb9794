import Foundation
import QuireClient
import QuireTrips

/// What `quire watch` prints about trips: a trip that another device made or changed (its list
/// row changed while nothing of this device's waits to be sent for it), and conflicts as they
/// appear. A trip edited on this device shows its waiting changes first, so it is not reported.
struct TripWatchPrinter {
    let console: Console
    let json: Bool

    private struct Event: Encodable {
        var event: String
        var id: String
        var title: String
        var conflicts: Int?
    }

    func changes(from previous: [TripID: TripSummary], to current: [TripSummary]) {
        for trip in current {
            let old = previous[trip.id]
            if trip.conflictCount > (old?.conflictCount ?? 0) {
                report(
                    "trip-conflict", trip,
                    "trip conflict: \(title(trip)): \(trip.conflictCount) field(s) wait for your choice (quire trip conflicts)"
                )
            } else if trip.pendingCount == 0, let old, old.pendingCount == 0, Self.listed(old) != Self.listed(trip) {
                report("trip-updated", trip, "trip updated: \(title(trip)) (\(trip.id.short))")
            } else if old == nil, trip.pendingCount == 0 {
                report("trip-new", trip, "trip new: \(title(trip)) (\(trip.id.short))")
            }
        }
    }

    private static func listed(_ trip: TripSummary) -> [String] {
        [trip.title, trip.startDate?.description ?? "", trip.endDate?.description ?? "", "\(trip.itemCount)"]
    }

    private func title(_ trip: TripSummary) -> String { trip.title.isEmpty ? "(untitled)" : trip.title }

    private func report(_ kind: String, _ trip: TripSummary, _ line: String) {
        guard json else {
            console.out("  " + line)
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let event = Event(
            event: kind, id: trip.id.description, title: trip.title,
            conflicts: kind == "trip-conflict" ? trip.conflictCount : nil)
        do {
            console.out(String(decoding: try encoder.encode(event), as: UTF8.self))
        } catch {
            console.err("quire: could not encode an event: \(error)")
        }
    }
}
