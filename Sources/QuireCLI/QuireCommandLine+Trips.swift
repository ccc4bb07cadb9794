import Foundation
import QuireClient
import QuirePresentation
import QuireTrips

// MARK: - trip new, ls, show, rm

extension QuireCommandLine {
    /// `quire trip COMMAND …`: travel plans (seed 002). Every command works offline and has
    /// `--help`; the database's refusals become one line and an exit code (``tripError(_:)``).
    func trip(_ words: [String]) async throws {
        guard let command = words.first else {
            console.err(TripHelp.overview)
            throw CLIError.usage(
                "'trip' needs a command: new, ls, show, rm, add, edit, move, rm-item, conflicts, resolve, restore, "
                    + "export, photo, photos, share, invites, accept, decline, members, role, remove, leave, invite, join"
            )
        }
        let rest = Array(words.dropFirst())
        if ["--help", "-h", "help"].contains(command), let table = CommandTable.command(named: "trip") {
            // The same text as `quire help trip`.
            console.out(HelpText.help(for: table))
            return
        }
        guard let help = TripHelp.commands[command] else {
            throw CLIError.usage("unknown trip command '\(command)'; see 'quire trip --help'")
        }
        if rest.contains("--help") || rest.contains("-h") {
            console.out(help)
            return
        }
        if Self.sharingCommands.contains(command) {
            try await tripSharing(command, rest)
            return
        }
        do {
            switch command {
            case "new": try await newTrip(rest)
            case "ls": try await listTrips(rest)
            case "show": try await showTrip(rest)
            case "rm": try await removeTrip(rest)
            case "add": try await addTripItem(rest)
            case "edit": try await editTripItem(rest)
            case "move": try await moveTripItem(rest)
            case "rm-item": try await removeTripItem(rest)
            case "conflicts": try await tripConflicts(rest)
            case "resolve": try await resolveTripConflict(rest)
            case "restore": try await restoreTripItem(rest)
            case "photo": try await tripPhoto(rest)
            case "photos": try await listPhotos(rest)
            default: try await exportTrip(rest)
            }
        } catch let error as TripsDatabaseError {
            throw Self.tripError(error)
        } catch let error as OrderKeyError where error == .unknownAnchor {
            throw CLIError.usage(
                "the item to place it against is not in the same day; move works within a day "
                    + "(to change the day, change the time: quire trip edit ITEM --at 'YYYY-MM-DD HH:MM')")
        }
    }

    func newTrip(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["from", "to"], flags: [])
        guard arguments.positionals.count == 1, let title = arguments.positionals.first,
            !title.allSatisfy(\.isWhitespace)
        else {
            throw CLIError.usage("'trip new' needs a TITLE (one argument; quote it if it has spaces)")
        }
        let from = try TripItemOptions.date(arguments.options["from"], flag: "from")
        let to = try TripItemOptions.date(arguments.options["to"], flag: "to")
        if let from, let to, to < from {
            throw CLIError.usage("--to \(to) is before --from \(from); give the first day, then the last")
        }
        let device = try openDevice()
        let id = try await device.trips.createTrip(title: title, startDate: from, endDate: to)
        console.out(id.description)
    }

    func listTrips(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        let trips = try await device.trips.trips()
        if arguments.flag("json") {
            var listed: [TripListJSON] = []
            for summary in trips {
                let fields = try await device.trips.trip(summary.id)?.fields ?? [:]
                listed.append(TripListJSON(summary, fields: fields))
            }
            try console.json(listed)
            return
        }
        guard !trips.isEmpty else {
            console.out("No trips yet. Create one with: quire trip new TITLE [--from YYYY-MM-DD] [--to YYYY-MM-DD]")
            return
        }
        for summary in trips { console.out(TripPrinter.listLine(summary)) }
    }

    func showTrip(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: ["zone"], flags: ["json"])
        let text = try arguments.expectPositionals(["trip"])[0]
        let mode = try Self.zoneMode(arguments.options["zone"])
        let device = try openDevice()
        let record = try await resolveTrip(text, in: device)
        let viewerZone = TimeZone.current.identifier
        // A $TZ this machine does not know makes the process's zone UTC: say so before times
        // are shown in it as if it were the person's.
        if mode == .viewer, let asked = ProcessInfo.processInfo.environment["TZ"], !asked.isEmpty,
            TimeZone(identifier: asked.hasPrefix(":") ? String(asked.dropFirst()) : asked) == nil
        {
            console.err(
                "quire: warning: the zone in $TZ ('\(asked)') is not one this machine knows; "
                    + "times are shown in \(viewerZone)")
        }
        // Who shares it, as the trip's log last showed this device (works offline).
        let members = try await device.trips.members(of: record.id)
        if arguments.flag("json") {
            var json = TripJSON(record, mode: mode, viewerZone: viewerZone)
            json.members = members.isEmpty ? nil : members.map { TripJSON.Member(username: $0.username, role: $0.role) }
            try console.json(json)
            return
        }
        let state = TripViewState.build(record: record, loaded: true, zoneMode: mode, viewerZone: viewerZone)
        var lines = TripPrinter.lines(state, trip: record.id)
        if !members.isEmpty {
            lines.insert("Shared: " + members.map { "\($0.username) (\($0.role))" }.joined(separator: ", "), at: 1)
        }
        for line in lines { console.out(line) }
    }

    func removeTrip(_ words: [String]) async throws {
        let arguments = try Arguments(words, options: [], flags: [])
        let text = try arguments.expectPositionals(["trip"])[0]
        let device = try openDevice()
        let record = try await resolveTrip(text, in: device)
        guard record.role == "owner" else {
            throw CLIError(
                code: .noPermission,
                message: "only an owner can delete '\(record.title)' (you are \(record.role)); "
                    + "to stop seeing it, leave it: quire trip leave \(record.id.short)")
        }
        try await device.trips.deleteTrip(record.id)
        let short = record.id.short
        console.out("Deleted trip \(short) \"\(record.title)\" (undo: quire trip restore \(short)).")
    }

    // MARK: - Helpers

    /// The `quire trip` commands that talk to the server at once (``tripSharing(_:_:)``).
    static let sharingCommands: Set<String> = [
        "share", "invites", "accept", "decline", "members", "role", "remove", "leave", "invite", "join",
    ]

    static func zoneMode(_ text: String?) throws -> TripZoneMode {
        guard let text else { return .item }
        guard let mode = TripZoneMode(rawValue: text) else {
            throw CLIError.usage(
                "--zone takes item (each item's own zone) or viewer (this device's zone), not '\(text)'")
        }
        return mode
    }

    /// The database's refusals as the CLI reports them.
    static func tripError(_ error: TripsDatabaseError) -> CLIError {
        switch error.kind {
        case .unknownTrip: .data("\(error.message); see 'quire trip ls'")
        case .unknownItem: .data("\(error.message); see 'quire trip show TRIP'")
        case .deletedItem: .data("\(error.message): quire trip restore ITEM")
        case .unknownConflict: .data("\(error.message); see 'quire trip conflicts'")
        case .invalidValue: .usage(error.message)
        case .wrongAccount: CLIError(code: .failure, message: error.message)
        case .ownersOnly: CLIError(code: .noPermission, message: error.message)
        }
    }
}
