import Foundation
import QuireClient
import QuireTrips

// MARK: - trip share, invites, accept, decline, members, role, remove, leave

extension QuireCommandLine {
    /// The sharing commands (issue 15): online, each one request or a few; the trips themselves
    /// still sync with `quire sync`.
    func tripSharing(_ command: String, _ words: [String]) async throws {
        let device = try openDevice()
        guard let sharing = try device.makeTripSharing() else {
            throw CLIError(
                code: .config, message: "sharing needs an account: quire login URL USER (or quire register URL USER)")
        }
        do {
            switch command {
            case "share": try await shareTrip(words, device, sharing)
            case "invites": try await listInvites(words, sharing)
            case "accept": try await acceptInvite(words, device, sharing)
            case "decline":
                try await sharing.decline(try Arguments(words, options: [], flags: []).expectPositionals(["invite"])[0])
            case "members": try await listMembers(words, device, sharing)
            case "role": try await changeRole(words, device, sharing)
            case "remove": try await removeMember(words, device, sharing)
            case "invite": try await inviteLink(words, device, sharing)
            case "join": try await joinByLink(words, device, sharing)
            default: try await leaveTrip(words, device, sharing)
            }
        } catch let error as TripSharing.Refusal {
            throw CLIError.data(error.description)
        } catch let error as NotesAPIError {
            throw Self.sharingError(error)
        }
    }

    private func shareTrip(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: ["with", "role"], flags: ["trust-new-key"])
        let trip = try await resolveTrip(try arguments.expectPositionals(["trip"])[0], in: device)
        guard let invitee = arguments.options["with"], !invitee.isEmpty else {
            throw CLIError.usage("'trip share' needs --with USER: the username of the person to invite")
        }
        let role = arguments.options["role"] ?? "editor"
        guard ["editor", "viewer"].contains(role) else {
            throw CLIError.usage("--role takes editor or viewer, not '\(role)' (make an owner with 'quire trip role')")
        }
        let person = try await sharing.share(
            trip.id, with: invitee, role: role, trustingNewKey: arguments.flag("trust-new-key"))
        console.out(
            "Invited \(person.username) to '\(trip.title)' as \(role). Their key: \(person.fingerprint) "
                + "(compare it with them). They see the invitation with 'quire trip invites' and join with "
                + "'quire trip accept INVITE'.")
    }

    private func listInvites(_ words: [String], _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
        _ = try arguments.expectPositionals([])
        try await sharing.keyPair()
        let invitations = try await sharing.invitations()
        if arguments.flag("json") {
            try console.json(invitations.map(InvitationJSON.init))
            return
        }
        guard !invitations.isEmpty else {
            console.out("No invitations waiting.")
            return
        }
        for invitation in invitations {
            console.out(
                "\(invitation.id.prefix(8))  trip \(invitation.trip.short)  from \(invitation.from.username) "
                    + "(key \(invitation.from.fingerprint))\(Self.keyWarning(invitation.from.key))")
        }
        console.out("Join one: quire trip accept INVITE; or: quire trip decline INVITE")
    }

    private func acceptInvite(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let id = try Arguments(words, options: [], flags: []).expectPositionals(["invite"])[0]
        let (trip, role) = try await sharing.accept(id)
        try await joined(trip, role: role, device)
    }

    private func inviteLink(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: ["role", "expires-in", "uses", "revoke"], flags: [])
        let trip = try await resolveTrip(try arguments.expectPositionals(["trip"])[0], in: device)
        if let revoked = arguments.options["revoke"] {
            try await sharing.revokeLink(revoked, of: trip.id)
            console.out("Revoked; the link no longer lets anyone join '\(trip.title)'.")
            return
        }
        let role = arguments.options["role"] ?? "viewer"
        guard ["editor", "viewer"].contains(role) else {
            throw CLIError.usage("--role takes editor or viewer, not '\(role)'")
        }
        let hours = try arguments.options["expires-in"].map { try Self.bounded($0, 1...720, flag: "expires-in") }
        let uses = try arguments.options["uses"].map { try Self.bounded($0, 1...100, flag: "uses") }
        let link = try await sharing.inviteLink(to: trip.id, role: role, hours: hours, uses: uses)
        console.out(link.text)
        console.err(
            "quire: anyone with this link can join '\(trip.title)' as \(role) (\(uses ?? 1) use(s), for \(hours ?? 168) "
                + "hours): send it privately. They run: quire trip join LINK")
    }

    private func joinByLink(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let text = try Arguments(words, options: [], flags: []).expectPositionals(["link"])[0]
        guard let link = InviteLink(text) else {
            throw CLIError.usage("'\(text)' is not a whole invite link (https://SERVER/join/ID#SECRET); copy all of it")
        }
        let (trip, role) = try await sharing.join(link)
        try await joined(trip, role: role, device)
    }

    static func bounded(_ text: String, _ range: ClosedRange<Int>, flag: String) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw CLIError.usage("--\(flag) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Says the trip was joined and syncs it here, as a person expects after joining.
    private func joined(_ trip: TripID, role: String, _ device: QuireDevice) async throws {
        console.out("Joined trip \(trip.short) as \(role).")
        // Bring it here now, as a person expects after joining.
        if let deviceSync = try device.makeDeviceSync() {
            let run = SyncRunSummary(await deviceSync.syncEachPart())
            if let failure = run.total.failure {
                console.err("quire: the trip arrives with the next sync (\(Self.withoutRawCodes(failure.message)))")
            } else if let record = try await device.trips.trip(trip) {
                console.out("'\(record.title)' is on this device: quire trip show \(trip.short)")
            }
        }
    }

    private func listMembers(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: [], flags: ["json"])
        let trip = try await resolveTrip(try arguments.expectPositionals(["trip"])[0], in: device)
        let people = try await sharing.members(of: trip.id)
        if arguments.flag("json") {
            try console.json(people.map(MemberJSON.init))
            return
        }
        for person in people {
            let you = person.username == sharing.username ? " (you)" : ""
            let key = person.fingerprint.isEmpty ? "no key yet" : "key \(person.fingerprint)"
            console.out("\(person.username)\(you)  \(person.role)  \(key)\(Self.keyWarning(person.key))")
        }
    }

    private func changeRole(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: ["role"], flags: [])
        let positionals = try arguments.expectPositionals(["trip", "user"])
        let trip = try await resolveTrip(positionals[0], in: device)
        guard let role = arguments.options["role"], ["owner", "editor", "viewer"].contains(role) else {
            throw CLIError.usage("'trip role' needs --role owner, editor or viewer")
        }
        try await sharing.setRole(role, of: positionals[1], in: trip.id)
    }

    private func removeMember(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: [], flags: ["trust-new-key"])
        let positionals = try arguments.expectPositionals(["trip", "user"])
        let trip = try await resolveTrip(positionals[0], in: device)
        let epoch = try await sharing.remove(
            positionals[1], from: trip.id, trustingNewKeys: arguments.flag("trust-new-key"))
        console.out("Removed \(positionals[1].lowercased()) from '\(trip.title)'; its key is now epoch \(epoch).")
    }

    private func leaveTrip(_ words: [String], _ device: QuireDevice, _ sharing: TripSharing) async throws {
        let arguments = try Arguments(words, options: [], flags: ["force"])
        let trip = try await resolveTrip(try arguments.expectPositionals(["trip"])[0], in: device)
        let unsent = try await device.trips.unsentChanges(of: trip.id)
        if unsent > 0, !arguments.flag("force") {
            throw CLIError.data(
                "\(unsent) change(s) to '\(trip.title)' haven't synced and would be lost; run 'quire sync' first, "
                    + "or leave anyway with --force")
        }
        do {
            _ = try await sharing.leave(trip.id)
        } catch let error as NotesAPIError where error.code == "last_owner" {
            // The trip's one owner: another member takes over first, or, alone in it, delete it.
            throw CLIError(
                code: .dataError,
                message: "you are the only owner of '\(trip.title)': make another member an owner first "
                    + "(quire trip role \(trip.id.short) USER --role owner), or, to be done with it for everyone, "
                    + "delete it: quire trip rm \(trip.id.short)")
        }
        console.out("Left '\(trip.title)'; its copy on this device is deleted.")
    }

    // MARK: - Helpers

    static func keyWarning(_ check: TripsDatabase.KeyCheck) -> String {
        guard case .changed(let remembered) = check else { return "" }
        let before = TripSharing.fingerprint(remembered)
        return "  WARNING: key changed (this device first saw \(before)); compare it with them before sharing"
    }

    /// A refusal of the sharing routes as one line and an exit code.
    static func sharingError(_ error: NotesAPIError) -> CLIError {
        let message = withoutRawCodes(error.message)
        switch error.kind {
        case .unreachable: return CLIError(code: .unavailable, message: "the server could not be reached: \(message)")
        case .transient: return CLIError(code: .tempFail, message: "the server did not answer; try again: \(message)")
        case .unauthorized: return CLIError(code: .noPermission, message: "signed out: quire login URL USER")
        default: return CLIError(code: error.status == 403 ? .noPermission : .dataError, message: message)
        }
    }
}
