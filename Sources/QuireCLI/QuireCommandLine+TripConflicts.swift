import Foundation
import QuireClient
import QuireTrips

// MARK: - trip conflicts, resolve, restore, export

extension QuireCommandLine {
    func tripConflicts(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        var listed: [(conflict: TripFieldConflict, trip: TripRecord?, item: TripItemRecord?)] = []
        var deletedTitles: [TripID: String] = [:]
        for conflict in try await device.trips.conflicts() {
            let trip = try await device.trips.trip(conflict.trip)
            var item: TripItemRecord?
            if let id = conflict.item { item = try await device.trips.item(id) }
            if conflict.isTripDeletedWhileChanged {
                deletedTitles[conflict.trip] = try await device.trips.deletedTripTitle(conflict.trip)
            }
            listed.append((conflict, trip, item))
        }
        if arguments.flag("json") {
            try console.json(
                listed.map {
                    TripConflictJSON(
                        $0.conflict, tripTitle: $0.trip?.title ?? deletedTitles[$0.conflict.trip],
                        itemTitle: $0.item?.title)
                })
            return
        }
        guard !listed.isEmpty else {
            console.out("No trip conflicts.")
            return
        }
        for entry in listed {
            console.out(
                TripPrinter.conflictLine(
                    entry.conflict, trip: entry.trip, tripTitle: deletedTitles[entry.conflict.trip], item: entry.item))
        }
    }

    /// The deleted trip `text` names (a full id, or a unique start or end of 4+ characters)
    /// among those this device holds changes of; nil when it names none.
    func resolveDeletedTripWithChanges(_ text: String, in device: QuireDevice) async throws -> TripID? {
        let offers = try await device.trips.conflicts().filter(\.isTripDeletedWhileChanged).map(\.trip)
        return try Self.deletedTrip(named: text, among: offers)
    }

    /// ``resolveDeletedTripWithChanges(_:in:)`` among every deleted trip this device holds.
    func resolveDeletedTrip(_ text: String, in device: QuireDevice) async throws -> TripID? {
        try Self.deletedTrip(named: text, among: try await device.trips.deletedTripIDs())
    }

    private static func deletedTrip(named text: String, among offers: [TripID]) throws -> TripID? {
        let needle = text.lowercased()
        if let id = TripID(needle), offers.contains(id) { return id }
        guard needle.count >= 4 else { return nil }
        let matches = offers.filter { $0.isNamed(by: needle) }
        guard matches.count <= 1 else {
            throw CLIError.data("'\(text)' matches \(matches.count) deleted trips; give more of the id")
        }
        return matches.first
    }

    func resolveTripConflict(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["field", "keep"], flags: [])
        let text = try arguments.expectPositionals(["item"])[0]
        guard let fieldName = arguments.options["field"], let keepName = arguments.options["keep"] else {
            throw CLIError.usage("'trip resolve' needs --field F and --keep mine|theirs (see 'quire trip conflicts')")
        }
        guard let field = TripField(rawValue: fieldName) else {
            let names = TripField.allCases.map(\.rawValue).joined(separator: ", ")
            throw CLIError.usage("--field takes one of \(names), not '\(fieldName)'")
        }
        guard let keep = TripConflictChoice(rawValue: keepName) else {
            throw CLIError.usage("--keep takes mine or theirs, not '\(keepName)'")
        }
        let device = try openDevice()
        // ITEM may also name a trip deleted while this device changed it, or a trip, for a
        // conflict on the trip's own fields.
        if field == .deleted, let trip = try await resolveDeletedTripWithChanges(text, in: device) {
            try await device.trips.resolveConflict(trip: trip, item: nil, field: .deleted, keep: keep)
            return
        }
        if let trip = try? await resolveTrip(text, in: device) {
            try await device.trips.resolveConflict(trip: trip.id, item: nil, field: field, keep: keep)
            return
        }
        let item = try await resolveItem(text, in: device)
        try await device.trips.resolveConflict(item: item.id, field: field, keep: keep)
    }

    func restoreTripItem(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: [])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        // A deleted trip comes back the same way: one deleted on another device while this one
        // changed it, with the changes, or one deleted anywhere (an owner's undo).
        if let trip = try await resolveDeletedTrip(text, in: device) {
            let title = try await device.trips.deletedTripTitle(trip) ?? ""
            try await device.trips.restoreTrip(trip)
            console.out("Restored trip \(trip.short) \"\(title)\".")
            return
        }
        let item = try await resolveItem(text, in: device, includingDeleted: true)
        guard item.isDeleted else {
            throw CLIError.data("item \(item.id.short) is not deleted; nothing to restore")
        }
        try await device.trips.restoreItem(item.id)
        console.out("Restored \(item.id.short) \"\(item.title)\".")
    }

    func exportTrip(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["ics"])
        guard arguments.flag("ics") else {
            throw CLIError.usage(
                "'trip export' needs --ics (the one format it writes): quire trip export TRIP --ics [FILE]")
        }
        guard (1...2).contains(arguments.positionals.count) else {
            throw CLIError.usage("expected <trip> [<file>], got \(arguments.positionals.joined(separator: " "))")
        }
        let device = try openDevice()
        let trip = try await resolveTrip(arguments.positionals[0], in: device)
        let items = trip.days.flatMap(\.items).map {
            CalendarItem(
                id: $0.id.description, title: $0.title, location: $0.location ?? "", notes: $0.notes ?? "",
                start: $0.start, end: $0.end)
        }
        let calendar = ICalendarWriter().calendar(title: trip.title, items: items, stamp: Date())
        guard arguments.positionals.count == 2 else {
            FileHandle.standardOutput.write(Data(calendar.utf8))
            return
        }
        let file = URL(fileURLWithPath: arguments.positionals[1])
        do {
            try Data(calendar.utf8).write(to: file, options: .atomic)
        } catch {
            throw CLIError(code: .ioError, message: "could not write \(file.path): \(error.localizedDescription)")
        }
    }
}
