import Foundation
import QuireClient
import QuireDomain

// MARK: - Performing one action

extension SimulationWorld {
    /// Performs one planned action; throws a ``SimulationFailure`` when a step invariant breaks.
    func perform(_ action: SimulationAction, step: Int) async throws {
        if let index = action.device, !devices.indices.contains(index) { return }
        switch action {
        case .create(let d, let token, let lines):
            let title = "T\(token)"
            let body = (1...max(1, lines)).map { "L\(token)x\($0)" }
            try await userAction(
                d, step: step, action: action, typed: [(title, .title)] + body.map { ($0, .line) }
            ) {
                database, _ in
                try await database.saveNote(
                    id: Self.noteID(token: token), title: title, body: body.joined(separator: "\n"))
            }
        case .editLine(let d, let note, let line, let token):
            try await userAction(d, step: step, action: action, typed: [("L\(token)", .line)]) {
                database, notes in
                guard let target = Self.pick(note, from: notes) else { return }
                var lines = target.lines
                if lines.isEmpty {
                    lines = ["L\(token)"]
                } else {
                    lines[line % lines.count] = "L\(token)"
                }
                try await Self.save(target, title: target.title, lines: lines, in: database)
            }
        case .append(let d, let note, let token):
            try await userAction(d, step: step, action: action, typed: [("L\(token)", .line)]) {
                database, notes in
                guard let target = Self.pick(note, from: notes) else { return }
                try await Self.save(
                    target, title: target.title, lines: target.lines + ["L\(token)"], in: database)
            }
        case .rename(let d, let note, let token):
            try await userAction(d, step: step, action: action, typed: [("T\(token)", .title)]) {
                database, notes in
                guard let target = Self.pick(note, from: notes) else { return }
                try await Self.save(target, title: "T\(token)", lines: target.lines, in: database)
            }
        case .delete(let d, let note):
            try await userAction(d, step: step, action: action, typed: []) { database, notes in
                guard let target = Self.pick(note, from: notes), let id = NoteID(target.id) else {
                    return
                }
                try await database.deleteNote(id: id)
            }
        case .resolve(let d, let copy, let choice):
            try await userAction(d, step: step, action: action, typed: []) { database, notes in
                guard let target = Self.pick(copy, from: notes.filter { $0.conflictOf != nil }),
                    let id = NoteID(target.id)
                else { return }
                try await database.resolveConflict(copy: id, keep: choice)
            }
        case .sync(let d):
            try await sync(devices[d], step: step)
        case .fault(let d, let fault):
            devices[d].transport.enqueue(fault)
        case .disconnect(let d):
            devices[d].transport.setOffline(true)
        case .reconnect(let d):
            devices[d].transport.setOffline(false)
        case .crash(let d):
            try devices[d].crash()
            stats.crashes += 1
        case .deliverDelayed(let pick):
            await held.deliver(pick: pick)
        case .concurrentSync(let d):
            let device = devices[d]
            let other = try device.secondProcess()
            let withTrips = config.trips
            let second = Task {
                let notes = await other.engine.syncOnce()
                let trips = withTrips ? await other.tripsEngine.syncOnce() : SyncReport()
                return (notes, trips)
            }
            let first = try await sync(device, step: step, checkingCursor: false)
            let (secondReport, secondTrips) = await second.value
            try await checkSession(of: device, step: step)
            // Either process may have restarted the feed: the cursor is checked once both ended.
            try await checkCursor(
                of: device, fullResync: first.fullResync || secondReport.fullResync, step: step)
            if let failure = secondReport.failure, failure.kind == .storage {
                throw SimulationFailure(
                    kind: .storage, message: "d\(d)'s second process failed on its database: \(failure.message)",
                    step: step)
            }
            if let failure = secondTrips.failure, failure.kind == .storage {
                throw SimulationFailure(
                    kind: .storage,
                    message: "d\(d)'s second process failed on its trips database: \(failure.message)", step: step)
            }
            stats.concurrentSyncs += 1
        case .switchAccount(let d):
            let database = try devices[d].database
            let trips = try devices[d].trips
            let holdsTrips = try await trips.holdsTrips()
            let holdsNotes = try await database.holdsNotes() || holdsTrips
            do {
                try await database.bindAccount(AccountID("another-account"))
                do {
                    try await trips.bindAccount(AccountID("another-account"))
                } catch let error as TripsDatabaseError where error.kind == .wrongAccount {
                    // The trips refused: the device signs back in, its notes' cursor forgotten.
                    try await database.bindAccount(AccountID("sim"))
                    cursors[d] = nil
                    throw NotesDatabaseError(.wrongAccount, error.message)
                }
            } catch let error as NotesDatabaseError where error.kind == .wrongAccount {
                guard holdsNotes else {
                    throw SimulationFailure(
                        kind: .harness, message: "d\(d) with no notes could not switch accounts",
                        step: step)
                }
                return
            }
            guard !holdsNotes else {
                throw SimulationFailure(
                    kind: .crossAccount,
                    message: "d\(d) holding notes was let sign in to another account", step: step)
            }
            try await database.bindAccount(AccountID("sim"))
            try await trips.bindAccount(AccountID("sim"))
            // Binding another account forgets the cursor by design: the next pull starts over.
            cursors[d] = nil
        case .backUpServer:
            let path = directory.appendingPathComponent("backup-\(step).sqlite").path
            try await storage.backUp(to: path)
            lastBackup = path
        case .restoreServer:
            guard let lastBackup else { return }
            try await storage.restore(fromBackupAt: lastBackup)
            // The server's history went back: versions and cursors may too, once.
            serverVersions = [:]
            cursors = [:]
            restoredSessions = Set(devices.indices).union([companion?.index].compactMap { $0 })
            stats.restores += 1
            try await forgiveWhatTheRestoreTookFromTheDeparted()
            try await noteTheRemovalsTheRestoreForgot()
        case .purgeTombstones:
            // A purge comes after the retention has passed (days): no request is still in the
            // network by then, so the held ones arrive first (their replies are lost, as always).
            await held.deliverAll()
            _ = try await server.purgeTombstones(olderThan: clock.now().addingTimeInterval(1))
            // Purged tombstones leave the server by design; every other note must stay.
            let left = Set(try await storage.allNotes().map(\.id))
            serverVersions = serverVersions.filter { left.contains($0.key) }
        case .pruneHistory:
            stats.prunedVersions += try await storage.pruneEveryEarlierVersion(now: clock.now())
        case .trip(let d, let tripStep):
            try await performTrip(tripStep, device: d, step: step)
        case .companion(let companionStep):
            try await performCompanion(companionStep, step: step)
        }
    }

    /// Runs one sync of `device`; relaunches it if it crashed mid-sync. Returns its report.
    @discardableResult
    func sync(_ device: SimulationDevice, step: Int?, checkingCursor: Bool = true) async throws
        -> SyncReport
    {
        let report = await (try device.engine).syncOnce()
        stats.syncs += 1
        try absorb(report, of: device, part: "sync", step: step)
        if device.transport.takeCrash() {
            try device.crash()
            stats.crashes += 1
        } else if config.trips {
            // The trips' part runs after the notes in the same process, as the device's sync does.
            let trips = try await syncTrips(of: device, step: step)
            lastTripsReport[device.index] = trips
            if device.transport.takeCrash() {
                try device.crash()
                stats.crashes += 1
            }
        }
        if checkingCursor {
            try await checkCursor(of: device, fullResync: report.fullResync, step: step)
        }
        try await checkSession(of: device, step: step)
        return report
    }

    /// Counts what a sync part did; throws when it failed on the device's own database (never a
    /// network fault's doing).
    func absorb(_ report: SyncReport, of device: SimulationDevice, part: String, step: Int?) throws {
        if let failure = report.failure, failure.kind == .storage {
            throw SimulationFailure(
                kind: .storage, message: "d\(device.index)'s \(part) failed on its database: \(failure.message)",
                step: step)
        }
        if report.failure != nil { stats.failedSyncs += 1 }
        stats.merges += report.merged
        stats.conflictCopies += report.conflictCopies
        stats.editsBeatDeletes += report.editsBeatDeletes
        stats.tripConflicts += report.fieldConflicts
        if report.fullResync { stats.fullResyncs += 1 }
        stats.refused += report.refused
        stats.reuploaded += report.reuploaded
        stats.keysRotated += report.keysRotated
    }

    /// A user's action on device `index`: reads its notes, acts, and tells the ledger what was
    /// typed and what the device held before and after.
    private func userAction(
        _ index: Int, step: Int, action: SimulationAction, typed: [(String, TextLedger.Atom.Kind)],
        _ body: (NotesDatabase, [NoteSnapshot]) async throws -> Void
    ) async throws {
        let device = devices[index]
        let before = try await snapshots(of: device)
        try await body(try device.database, before)
        let after = try await snapshots(of: device)
        let origin = "step \(step) (\(action))"
        // Only text that actually landed is owed (an action with no target types nothing).
        let landed = typed.map { TextLedger.Atom(text: $0.0, kind: $0.1, origin: origin) }
            .filter { TextLedger.holds($0, in: after) }
        ledger.record(typed: landed, before: before, after: after)
    }

    /// The note at `index` modulo the count, in the stable order of `NoteSnapshot`; nil if none.
    static func pick(_ index: Int, from notes: [NoteSnapshot]) -> NoteSnapshot? {
        notes.isEmpty ? nil : notes.sorted()[index % notes.count]
    }

    static func save(
        _ note: NoteSnapshot, title: String, lines: [String], in database: NotesDatabase
    ) async throws {
        guard let id = NoteID(note.id) else { return }
        try await database.saveNote(id: id, title: title, body: lines.joined(separator: "\n"))
    }

    /// The note id a plan's `create` with this token makes: the same on every run of the plan.
    static func noteID(token: Int) -> NoteID {
        let hex = String(format: "%012llx", UInt64(token))
        return NoteID("5151e000-0000-4000-8000-\(hex)") ?? NoteID()
    }
}
