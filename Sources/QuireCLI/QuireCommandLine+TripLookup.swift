import Foundation
import QuireClient
import QuireTrips

// MARK: - Finding a trip or an item by id or prefix

extension QuireCommandLine {
    /// Finds a live trip by full id or by a unique start or end of it (4+ characters), as `show`
    /// finds a note.
    func resolveTrip(_ text: String, in device: QuireDevice) async throws -> TripRecord {
        let needle = text.lowercased()
        if let id = TripID(needle), let trip = try await device.trips.trip(id) { return trip }
        guard needle.count >= 4 else {
            throw CLIError.data("no trip with id '\(text)' (give at least 4 characters of the id; see 'quire trip ls')")
        }
        let matches = try await device.trips.trips().filter { $0.id.isNamed(by: needle) }
        switch matches.count {
        case 1:
            if let trip = try await device.trips.trip(matches[0].id) { return trip }
        case 0: break
        default: throw CLIError.data("'\(text)' matches \(matches.count) trips; give more of the id")
        }
        throw CLIError.data("no trip with id '\(text)'; see 'quire trip ls'")
    }

    /// Finds an item by full id (deleted ones too) or a unique start or end of it (4+ characters) among the
    /// items the trips show: live ones, and deleted ones waiting for a restore; with
    /// `includingDeleted`, every deleted item of a live trip too (what `trip restore` may name).
    func resolveItem(_ text: String, in device: QuireDevice, includingDeleted: Bool = false) async throws
        -> TripItemRecord
    {
        let needle = text.lowercased()
        if let id = ItemID(needle), let item = try await device.trips.item(id) { return item }
        guard needle.count >= 4 else {
            throw CLIError.data(
                "no item with id '\(text)' (give at least 4 characters of the id; see 'quire trip show TRIP')")
        }
        var matches: [TripItemRecord] = []
        for summary in try await device.trips.trips() {
            guard let trip = try await device.trips.trip(summary.id) else { continue }
            matches += (trip.items + trip.deletedItemsWithConflicts).filter { $0.id.isNamed(by: needle) }
        }
        if includingDeleted {
            let listed = Set(matches.map(\.id))
            for id in try await device.trips.deletedItemIDs() where id.isNamed(by: needle) && !listed.contains(id) {
                if let item = try await device.trips.item(id) { matches.append(item) }
            }
        }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw CLIError.data("no item with id '\(text)'; see 'quire trip show TRIP'")
        default: throw CLIError.data("'\(text)' matches \(matches.count) items; give more of the id")
        }
    }

    /// `--after ITEM` / `--before ITEM` (also `--first` / `--last` when `flags` allow them), with
    /// the anchor resolved to an item of `trip`; nil when none is given.
    func position(_ arguments: Arguments, trip: TripID, in device: QuireDevice) async throws -> OrderPosition? {
        let given = [
            arguments.options["after"].map { ("after", $0) }, arguments.options["before"].map { ("before", $0) },
            arguments.flag("first") ? ("first", "") : nil, arguments.flag("last") ? ("last", "") : nil,
        ].compactMap { $0 }
        guard given.count <= 1 else {
            throw CLIError.usage("give one of \(given.map { "--\($0.0)" }.joined(separator: ", ")), not several")
        }
        guard let (name, text) = given.first else { return nil }
        switch name {
        case "first": return .first
        case "last": return .last
        default:
            let anchor = try await resolveItem(text, in: device)
            guard anchor.trip == trip else {
                throw CLIError.usage(
                    "item \(anchor.id.short) is in another trip; place it against an item of this one")
            }
            return name == "after" ? .after(anchor.id.description) : .before(anchor.id.description)
        }
    }
}
