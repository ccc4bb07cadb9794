import Foundation
import QuireTestSupport

// MARK: - Trips as `quire trip … --json` prints them

extension CLIDevice {
    /// `quire trip show TRIP --json`, decoded.
    func trip(_ id: String, zone: String = "item", environment: [String: String] = [:]) async throws -> CLITrip {
        let result = try await run("trip", "show", id, "--json", "--zone", zone, environment: environment)
        guard result.exitCode == 0 else { throw CLIFailure(command: "trip show \(id)", result: result) }
        return try JSONDecoder().decode(CLITrip.self, from: Data(result.stdout.utf8))
    }

    /// `quire trip conflicts --json`, decoded.
    func tripConflicts() async throws -> [CLITripConflict] {
        try JSONDecoder().decode([CLITripConflict].self, from: Data(try await ok("trip", "conflicts", "--json").utf8))
    }

    /// A trip "Lisbon" (9–12 June 2027) with one item "Lunch" at 12:00 in Lisbon: the trip's id
    /// and the item's.
    @discardableResult
    func lisbonWithLunch() async throws -> (trip: String, lunch: String) {
        let trip = try await ok("trip", "new", "Lisbon", "--from", "2027-06-09", "--to", "2027-06-12")
        let lunch = try await ok(
            "trip", "add", trip, "--title", "Lunch", "--kind", "meal", "--at", "2027-06-10 12:00", "--zone",
            "Europe/Lisbon")
        return (trip, lunch)
    }
}

struct CLITrip: Decodable {
    struct Day: Decodable {
        var date: String?
        var items: [CLITripItem]
    }

    var id: String
    var title: String
    var state: String
    var pendingCount: Int
    var conflictCount: Int
    var fields: [String: CLITripField]
    var days: [Day]
    var deletedWhileEdited: [CLITripItem]

    var items: [CLITripItem] { days.flatMap(\.items) }

    func item(_ id: String) -> CLITripItem? { items.first { $0.id == id } }
}

struct CLITripItem: Decodable {
    struct Time: Decodable {
        var local: String
        var zone: String
        var shown: String
        var resolution: String
    }

    var id: String
    var title: String
    var kind: String?
    var location: String?
    var notes: String?
    var order: String
    var start: Time?
    var end: Time?
    var state: String
    var fields: [String: CLITripField]
}

struct CLITripField: Decodable {
    var value: String?
    var revision: Int
    var state: String
}

struct CLITripConflict: Decodable, Equatable {
    var trip: String
    var item: String?
    var field: String
    var mine: String?
    var theirs: String?
    var theirRevision: Int
    var deletedWhileEdited: Bool
}
