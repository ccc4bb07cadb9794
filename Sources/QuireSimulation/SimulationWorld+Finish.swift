import Foundation
import QuireClient

// MARK: - Healing, quiescence and the end checks

extension SimulationWorld {
    /// Heals everything, syncs to quiescence, then checks convergence, nothing lost, at most
    /// once and the history ledger. Returns the first failure, or nil.
    func finish() async throws -> SimulationFailure? {
        await held.deliverAll()
        for device in devices { device.transport.heal() }
        if let failure = try await quiesce() { return failure }
        if let failure = try await checkConvergence() { return failure }
        let server = try await serverSnapshots()
        // Text the server refused never reached it: it must still be on the device that has it,
        // in the refused note, shown as such.
        var refusedNotes: [NoteSnapshot] = []
        for device in devices {
            refusedNotes += try await device.rows().filter(\.refused).map(NoteSnapshot.init)
        }
        let missing = ledger.missing(in: server + refusedNotes)
        if !missing.isEmpty {
            return SimulationFailure(
                kind: .lostText,
                message: "lost \(missing.map(\.description).joined(separator: "; ")); notes now: "
                    + server.map(\.description).joined(separator: " | "))
        }
        let applied = storage.appliedWrites
        stats.appliedWrites = applied.count
        let notes = try await storage.allNotes().map { (id: $0.id, version: $0.version) }
        let problems = ServerChecks.atMostOnce(applied: applied, notes: notes)
        if !problems.isEmpty {
            return SimulationFailure(kind: .appliedTwice, message: problems.joined(separator: "; "))
        }
        if let failure = try await checkHistoryLedger() { return failure }
        guard config.trips else { return nil }
        try checkRoles(step: nil)
        try await checkCompanionHoldsNothingWrittenWithoutIt(step: nil)
        if let failure = try await checkTripsConvergence() { return failure }
        if let failure = try await checkTripsLedger() { return failure }
        if config.unseenEditsEverywhere, let failure = try await checkUnseenEditsEverywhere() { return failure }
        return checkTripsAtMostOnce()
    }

    /// Rounds of "every device syncs once, in order" until one round in which every sync
    /// succeeded and moved nothing, and no device has a pending change. Liveness failure after
    /// `config.maxQuiescenceRounds`.
    private func quiesce() async throws -> SimulationFailure? {
        var last: [String] = []
        for round in 1...max(1, config.maxQuiescenceRounds) {
            // Time passes between rounds, as between a controller's retries: every change that
            // backs off after failed sends is due again.
            clock.advance(by: ChangeRetry.maximumDelay + 1)
            var quiet = true
            last = []
            for device in devices {
                lastTripsReport[device.index] = nil
                var report = try await sync(device, step: nil)
                if let trips = lastTripsReport[device.index] {
                    report.pushed += trips.pushed
                    report.received += trips.received
                    report.merged += trips.merged
                    report.conflictCopies += trips.fieldConflicts
                    report.refused += trips.refused
                    report.failure = report.failure ?? trips.failure
                }
                if ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "state" {
                    FileHandle.standardError.write(
                        Data("quiescence round \(round): d\(device.index) synced: \(report)\n".utf8))
                    await traceState()
                }
                let moved =
                    report.pushed + report.received + report.merged + report.conflictCopies
                    + report.editsBeatDeletes + report.refused
                if report.failure != nil || moved > 0 { quiet = false }
                // Refused changes wait for the user, not for another round.
                let status = try await device.database.readStatus()
                var pending = status.pendingCount - status.refusedCount
                if config.trips {
                    let trips = try await (try device.trips).readStatus()
                    pending += trips.pendingCount
                }
                if pending > 0 { quiet = false }
                last.append(
                    "d\(device.index): moved \(moved), pending \(pending), failure "
                        + (report.failure.map { "\($0.message)" } ?? "none"))
            }
            if let companion {
                let report = try await syncCompanion(step: nil)
                if ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "state" {
                    let shown = (try? await TripsView(try companion.trips).visible.map { "\($0.id): \($0.body)" }) ?? []
                    FileHandle.standardError.write(
                        Data(
                            ("quiescence round \(round): companion synced: \(report)\n  companion shows: "
                                + shown.joined(separator: "; ") + "\n").utf8))
                }
                let moved = report.pushed + report.received + report.merged + report.fieldConflicts + report.refused
                let pending = try await (try companion.trips).readStatus().pendingCount
                if report.failure != nil || moved > 0 || pending > 0 { quiet = false }
                last.append(
                    "companion: moved \(moved), pending \(pending), failure "
                        + (report.failure.map { "\($0.message)" } ?? "none"))
            }
            if quiet {
                stats.quiescenceRounds = max(stats.quiescenceRounds, round)
                return nil
            }
        }
        return SimulationFailure(
            kind: .liveness,
            message: "not quiet after \(config.maxQuiescenceRounds) rounds: "
                + last.joined(separator: "; "))
    }

    /// Every device holds exactly the server's live notes (ids, titles, bodies, copy links).
    private func checkConvergence() async throws -> SimulationFailure? {
        let allServer = try await serverSnapshots()
        for device in devices {
            // A note whose change the server refused shows this device's text until the user
            // acts: it differs from the server's by design, and only there.
            let refused = Set(try await device.rows().filter(\.refused).map(\.id.description))
            let local = try await snapshots(of: device).filter { !refused.contains($0.id) }
            let server = allServer.filter { !refused.contains($0.id) }
            guard local != server else { continue }
            let onlyLocal = Set(local).subtracting(server).sorted().map(\.description)
            let onlyServer = Set(server).subtracting(local).sorted().map(\.description)
            return SimulationFailure(
                kind: .divergence,
                message: "d\(device.index) differs from the server: only on the device "
                    + "\(onlyLocal), only on the server \(onlyServer)")
        }
        return nil
    }
}
