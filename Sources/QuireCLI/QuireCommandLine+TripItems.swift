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
        let arguments = try Arguments(words, options: TripItemOptions.names, flags: [])
        let text = try arguments.expectPositionals(["item"])[0]
        let device = try openDevice()
        let item = try await resolveItem(text, in: device)
        try await requireEditing(item.trip, in: device)
        let options = try TripItemOptions(arguments, current: item)
        let position = try await position(arguments, trip: item.trip, in: device)
        guard !options.changes.isEmpty || position != nil else {
            throw CLIError.usage("'trip edit' needs at least one field to change; see 'quire trip edit --help'")
        }
        for warning in options.warnings { console.err(warning) }
        try await device.trips.editItem(item.id, options.changes)
        if let position { try await device.trips.moveItem(item.id, to: position) }
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
