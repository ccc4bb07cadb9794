import Foundation
import QuireClient
import QuireServer
import QuireTrips
import QuireWire

// MARK: - The companion: sharing, roles and removals (issue 15)

extension SimulationWorld {
    /// Performs one step between the account and its companion. Sharing calls are online and go
    /// through the devices' own (faulty) networks: one that fails did not happen, or happened on
    /// the server without the device hearing of it; the checks read membership from the server.
    func performCompanion(_ step: CompanionStep, step stepIndex: Int) async throws {
        guard let companion, let owner = devices.first else { return }
        // The trip whose membership the step may have changed.
        var changed: TripID?
        switch step {
        case .trip(let tripStep):
            try await performTrip(tripStep, on: companion, step: stepIndex)
        case .sync:
            try await syncCompanion(step: stepIndex)
        case .share(let trip, let viewer):
            guard let id = try await Self.pickTrip(trip, in: try owner.trips)?.id,
                try await (try owner.trips).isOnServer(id)
            else { return }
            changed = id
            let sharing = try companion.sharing
            _ = try? await owner.sharing.share(id, with: Self.companionName, role: viewer ? "viewer" : "editor")
            if let invitation = try? await sharing.invitations().first(where: { $0.trip == id }),
                (try? await sharing.accept(invitation.id)) != nil
            {
                stats.joins += 1
            }
        case .role(let trip, let viewer):
            guard let id = try await Self.pickTrip(trip, in: try owner.trips)?.id else { return }
            try? await owner.sharing.setRole(viewer ? "viewer" : "editor", of: Self.companionName, in: id)
        case .remove(let trip):
            guard let id = try await Self.pickTrip(trip, in: try owner.trips)?.id else { return }
            changed = id
            if (try? await owner.sharing.remove(Self.companionName, from: id)) != nil {
                stats.removals += 1
                stats.keysRotated += 1
            }
        case .leave(let trip):
            guard let id = try await Self.pickTrip(trip, in: try companion.trips)?.id else { return }
            changed = id
            if let removal = try? await companion.sharing.leave(id) {
                stats.removals += 1
                try await forgiveLostChanges(of: [removal])
            }
        }
        if let changed { companionJoined[changed] = try await companionIsMember(of: changed) }
        try await checkCompanionHoldsNothingWrittenWithoutIt(step: stepIndex)
        try checkRoles(step: stepIndex)
    }

    /// The companion's trips sync; a trip it lost (removed) forgives the changes it warned of.
    @discardableResult
    func syncCompanion(step: Int?) async throws -> SyncReport {
        guard let companion else { return SyncReport() }
        let report = try await syncTrips(of: companion, step: step)
        lastTripsReport[companion.index] = report
        try await checkSession(of: companion, step: step)
        try await forgiveLostChanges(of: report.tripsRemoved)
        try await checkCompanionHoldsNothingWrittenWithoutIt(step: step)
        return report
    }

    /// The companion's own text in a trip it is no longer a member of is no longer owed when only
    /// its device held it: what never reached the server is lost by the product's rule (its
    /// device warned, "N changes … will be lost"), and so is an edit that only its device kept to
    /// restore. Its text the server or an owner's device holds had synced, and stays owed like
    /// the owners' text.
    private func forgiveLostChanges(of removals: [TripsDatabase.Removal]) async throws {
        for removal in removals { try await forgiveTheCompanionsTextOnlyItHeld(in: removal.trip) }
    }

    /// A restore forgets what the server alone held of a companion who had left or been removed:
    /// its device deleted its copy, and nothing can send that text again. What an owner's device
    /// holds stays owed: that device must send it again (the author cannot).
    func forgiveWhatTheRestoreTookFromTheDeparted() async throws {
        for (trip, joined) in companionJoined where !joined {
            try await forgiveTheCompanionsTextOnlyItHeld(in: trip)
        }
    }

    private func forgiveTheCompanionsTextOnlyItHeld(in trip: TripID) async throws {
        guard let companion else { return }
        let marker = "(d\(companion.index) "
        let held = try await heldByTheOwnersSide(trip)
        tripLedger.forgive { $0.scope == trip.description && $0.origin.contains(marker) && !held.contains($0.text) }
    }

    /// The lines of `trip` the owners' side holds now: the server's values (opened with the keys
    /// the devices hold) and what each owner's device shows or keeps to restore.
    func heldByTheOwnersSide(_ trip: TripID) async throws -> Set<String> {
        var lines: Set<String> = []
        let prefix = trip.description + "/"
        for device in devices {
            for note in try await TripsView(try device.trips).visible where note.id.hasPrefix(prefix) {
                lines.formUnion(note.lines)
            }
        }
        // Mid-run a value may be sealed with a key no device took yet: the devices' share counts.
        guard let account = storage.account,
            let server = try? await TripsView(server: storage, account: account, keyrings: try await heldKeyrings())
        else { return lines }
        for (key, value) in server.shown where key.hasPrefix(prefix) {
            guard let field = key.split(separator: "/").last.flatMap({ TripField(rawValue: String($0)) }),
                TripsView.typedFields.contains(field)
            else { continue }
            lines.formUnion(NoteSnapshot(id: key, title: "", body: value, conflictOf: nil).lines)
        }
        return lines
    }

    /// Remembers what owner device `index`'s step wrote into a trip the companion is not a member
    /// of, unless a restore forgot the removal and the device never learned of it.
    func rememberWrittenWithoutCompanion(by index: Int, before: TripsView, after: TripsView) async throws {
        try await closeForgottenRemovals()
        let written = Dictionary(after.visible.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let earlier = Dictionary(before.visible.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (key, snapshot) in written where earlier[key] != snapshot {
            guard let trip = key.split(separator: "/").first.flatMap({ TripID(String($0)) }),
                try await !companionMayRead(trip),
                forgottenRemovals[trip].map({ $0.contains(index) }) ?? true
            else { continue }
            let new = Set(snapshot.lines).subtracting(earlier[key]?.lines ?? [])
            writtenWithoutCompanion[trip, default: [:]][index, default: []].formUnion(new)
        }
    }

    /// A restore that forgot the companion's removal from a trip makes it a member again until an
    /// owner's device that knew of the removal syncs, which makes the removal again before it
    /// sends anything. Until then nothing the restored server or the other devices hold says
    /// the companion was removed: what those devices write may reach it, and is no longer
    /// checked. What the devices that knew write still must not reach it. A device knew when it
    /// remembers the membership the restored server lists as one it saw end.
    func noteTheRemovalsTheRestoreForgot() async throws {
        forgottenRemovals = [:]
        guard let account = storage.account else { return }
        let field = WireRoutes.memberFieldPrefix + Self.companionName
        for (trip, joined) in companionJoined where !joined {
            guard
                let listed = try await storage.inner.members(trip.description, account: account)?
                    .first(where: { $0.username == Self.companionName })
            else { continue }
            var knew: Set<Int> = []
            for device in devices {
                let ended = try await (try device.trips).endedMemberships(of: trip)
                let remembers = ended.contains { departure in
                    departure.memberField == field && listed.entryRevision.map { $0 <= departure.joinRevision } == true
                }
                if remembers { knew.insert(device.index) }
            }
            forgottenRemovals[trip] = knew
            writtenWithoutCompanion[trip] = writtenWithoutCompanion[trip]?.filter { knew.contains($0.key) }
        }
    }

    /// Ends the wait of each removal a restore forgot once the server no longer lists the
    /// companion (a device made the removal again), the companion joined again, or device
    /// `synced`, which knew of the removal, synced without a failure (it made the removal again
    /// first, or the check finds what it sent).
    func closeForgottenRemovals(syncedBy synced: Int? = nil) async throws {
        for (trip, knew) in forgottenRemovals {
            let madeAgain = synced.map(knew.contains) ?? false
            let member = try await companionIsMember(of: trip)
            if madeAgain || companionJoined[trip] == true || !member { forgottenRemovals[trip] = nil }
        }
    }

    /// Whether the companion may read `trip`: the server has it as a member, by a join no
    /// removal undid since (a membership a restore brought back after a removal is none).
    func companionMayRead(_ trip: TripID) async throws -> Bool {
        guard companionJoined[trip] == true else { return false }
        return try await companionIsMember(of: trip)
    }

    /// Whether the server has the companion as a member of `trip` now.
    func companionIsMember(of trip: TripID) async throws -> Bool {
        guard let account = try await storage.inner.account(username: Self.companionName)?.id else { return false }
        return try await storage.inner.tripSnapshot(trip.description, account: account) != nil
    }

    /// "A removed member holds no values written after the removal": the companion's device
    /// never shows a value written into a trip while it was not a member of it (until it joins
    /// again, when it may read everything; a restore that brings its membership back is no join).
    func checkCompanionHoldsNothingWrittenWithoutIt(step: Int?) async throws {
        guard let companion else { return }
        let visible = try await TripsView(try companion.trips).visible
        try await closeForgottenRemovals()
        for trip in writtenWithoutCompanion.keys where try await companionMayRead(trip) {
            writtenWithoutCompanion[trip] = nil
        }
        if let leak = MembershipChecks.leaked(
            visible: visible,
            writtenWithout: Dictionary(
                uniqueKeysWithValues: writtenWithoutCompanion.map {
                    ($0.key.description, $0.value.values.reduce(into: Set<String>()) { $0.formUnion($1) })
                }))
        {
            throw SimulationFailure(kind: .membership, message: leak, step: step)
        }
    }

    /// "A member who left reads nothing sealed after the owner's next sync": once an owner's
    /// device synced its trips without a failure, the server asks for no rotation of a trip the
    /// device holds as its owner (the device rotated the key, or another owner's device had).
    func checkNoRotationLeftDue(by device: SimulationDevice, step: Int?) async throws {
        guard let account = storage.account else { return }
        let trips = try device.trips
        for trip in try await trips.trips() where try await trips.role(of: trip.id) == "owner" {
            guard try await storage.inner.tripKeys(trip.id.description, account: account)?.rekeyDue == true
            else { continue }
            throw SimulationFailure(
                kind: .membership,
                message: "d\(device.index) synced without a failure and left the key of trip "
                    + "\(trip.id.description.prefix(8)) due to rotate after a member left",
                step: step)
        }
    }

    /// "No op from a member without the right role is ever applied", as the server's storage saw.
    func checkRoles(step: Int?) throws {
        guard let violation = storage.roleViolations.first else { return }
        throw SimulationFailure(kind: .membership, message: violation, step: step)
    }

    /// The companion's trips equal the server's as its account sees them (ignoring its refusals).
    func checkCompanionConvergence() async throws -> SimulationFailure? {
        guard let companion,
            let account = try await storage.inner.account(username: Self.companionName)?.id
        else { return nil }
        let server = try await TripsView(server: storage, account: account, keyrings: try await heldKeyrings())
        let local = try await TripsView(try companion.trips)
        let differences = local.differences(from: server)
        guard !differences.isEmpty else { return nil }
        return SimulationFailure(
            kind: .divergence,
            message: "the companion's trips differ from the server's: " + differences.prefix(6).joined(separator: "; "))
    }

    /// Every trip key any device holds, by trip: what opens the server's values at the end.
    func heldKeyrings() async throws -> [TripID: TripKeyring] {
        var keyrings: [TripID: TripKeyring] = [:]
        for device in devices + [companion].compactMap({ $0 }) {
            for trip in try await (try device.trips).trips() {
                guard let keyring = try await (try device.trips).keyring(trip.id) else { continue }
                if keyrings[trip.id].map({ $0.epoch < keyring.epoch }) ?? true { keyrings[trip.id] = keyring }
            }
        }
        return keyrings
    }
}
