import Foundation
import QuireClient
import QuireTrips

// MARK: - trip add, edit, move, rm-item

extension QuireCommandLine {
    func addTripItem(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: TripItemOptions.names, flags: [])
        let text = try arguments.expectPositionals(["trip"])[0]
        guard arguments.options["title"] != nil else {
            throw CLIError.usage("'trip add' needs --title T (and optionally --at 'YYYY-MM-DD HH:MM' --zone ZONE)")
        }
        let options = try TripItemOptions(arguments, current: nil)
        let device = try openDevice()
        let trip = try await resolveTrip(text, in: device)
        try Self.requireEditing(trip)
        let position = try await position(arguments, trip: trip.id, in: device) ?? .last
        for warning in options.warnings { console.err(warning) }
        let id = try await device.trips.addItem(to: trip.id, options.changes, at: position)
        console.out(id.description)
    }

    func editTripItem(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: TripItemOptions.names.union(["from", "to"]), flags: [])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        // A trip's own title, dates and notes: `trip edit TRIP`.
        if let trip = try? await resolveTrip(text, in: device) {
            try await editTrip(trip, arguments, in: device)
            return
        }
        let item = try await resolveItem(text, in: device)
        try await requireEditing(item.trip, in: device)
        guard arguments.options["from"] == nil, arguments.options["to"] == nil else {
            throw CLIError.usage(
                "--from and --to are a trip's dates (quire trip edit TRIP); an item takes --at and --end")
        }
        let options = try TripItemOptions(arguments, current: item)
        let position = try await position(arguments, trip: item.trip, in: device)
        guard !options.changes.isEmpty || position != nil else {
            throw CLIError.usage("'trip edit' needs at least one field to change; see 'quire trip edit --help'")
        }
        for warning in options.warnings { console.err(warning) }
        try await device.trips.editItem(item.id, options.changes)
        if let position { try await device.trips.moveItem(item.id, to: position) }
    }

    /// `quire trip edit TRIP [--title T] [--from D] [--to D] [--notes N]`: the trip's own fields;
    /// an empty date or notes clears it.
    private func editTrip(_ trip: TripRecord, _ arguments: Arguments, in device: QuireDevice) async throws {
        try Self.requireEditing(trip)
        let itemOnly = arguments.options.keys.filter { !["title", "from", "to", "notes"].contains($0) }
        guard itemOnly.isEmpty else {
            throw CLIError.usage(
                "a trip has --title, --from, --to and --notes; \(itemOnly.sorted().map { "--\($0)" }.joined(separator: ", ")) "
                    + "are an item's (quire trip edit ITEM)")
        }
        var changes: [TripField: String?] = [:]
        if let title = arguments.options["title"] {
            guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw CLIError.usage("a trip needs a title; --title cannot be empty")
            }
            changes[.title] = title
        }
        for (flag, field) in [("from", TripField.startDate), ("to", .endDate)] {
            guard let text = arguments.options[flag] else { continue }
            changes.updateValue(
                text.isEmpty ? nil : try TripItemOptions.date(text, flag: flag)?.description, forKey: field)
        }
        if let notes = arguments.options["notes"] { changes.updateValue(notes.isEmpty ? nil : notes, forKey: .notes) }
        guard !changes.isEmpty else {
            throw CLIError.usage("'trip edit' needs at least one field to change; see 'quire trip edit --help'")
        }
        let from = changes[.startDate].map { $0.flatMap(LocalDate.init) } ?? trip.startDate
        let to = changes[.endDate].map { $0.flatMap(LocalDate.init) } ?? trip.endDate
        if let from, let to, to < from {
            throw CLIError.usage(
                "the trip would end (\(to)) before it starts (\(from)); give the first day, then the last")
        }
        try await device.trips.editTrip(trip.id, changes)
    }

    func moveTripItem(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["after", "before"], flags: ["first", "last"])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        let item = try await resolveItem(text, in: device)
        try await requireEditing(item.trip, in: device)
        guard let position = try await position(arguments, trip: item.trip, in: device) else {
            throw CLIError.usage("'trip move' needs one of --after ITEM, --before ITEM, --first, --last")
        }
        try await checkMove(item, to: position, in: device)
        try await device.trips.moveItem(item.id, to: position)
    }

    func removeTripItem(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: [])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        let item = try await resolveItem(text, in: device)
        try await requireEditing(item.trip, in: device)
        try await device.trips.deleteItem(item.id)
        console.out("Deleted \(item.id.short) \"\(item.title)\" (undo: quire trip restore \(item.id.short)).")
    }

    /// A move that would change nothing shown is refused with why: a day lists its items by their
    /// time, so an item goes only among those at its own time (or, untimed, among the untimed);
    /// it used to report success and queue an order change nobody could see.
    private func checkMove(_ item: TripItemRecord, to position: OrderPosition, in device: QuireDevice) async throws {
        let anchorID: String
        switch position {
        case .after(let id), .before(let id): anchorID = id
        case .first, .last: return
        }
        guard anchorID != item.id.description else {
            throw CLIError.usage("an item cannot go next to itself; give another item of its day")
        }
        guard let anchorItem = ItemID(anchorID), let anchor = try await device.trips.item(anchorItem) else { return }
        let mine = item.start?.fieldValue
        let theirs = anchor.start?.fieldValue
        guard mine != theirs else { return }
        throw CLIError.usage(
            "'\(item.title)' (\(mine ?? "no time")) and '\(anchor.title)' (\(theirs ?? "no time")) are not at the "
                + "same time, and a day lists its items by time: move orders items of one time (or without one); "
                + "change the time with --at instead")
    }

    /// A viewer's change would be refused by the server (roles are enforced there) and then
    /// shadow the trip's real value on this device: refused here at once instead, with who to ask.
    static func requireEditing(_ trip: TripRecord) throws {
        guard trip.role == TripMemberRole.viewer.rawValue else { return }
        throw CLIError(
            code: .noPermission,
            message: "you can view '\(trip.title)' but not change it (its owner shared it with you as viewer); "
                + "ask an owner to make you an editor")
    }

    /// ``requireEditing(_:)`` for the trip of an item.
    func requireEditing(_ trip: TripID, in device: QuireDevice) async throws {
        if let record = try await device.trips.trip(trip) { try Self.requireEditing(record) }
    }
}
