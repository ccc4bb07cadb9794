import Testing

@testable import QuireSimulation

/// Shrunk plans of seeds that found holes around a server restored from an older backup
/// (issue 9), kept as they were found so each hole stays closed whatever the planner draws.
struct RestoreCaseTests {
    static let config = SimulationConfig(devices: 3, steps: 0)

    @Test func notesSentAgainAfterARestoreReachADeviceThatNeverHeldThem() async {
        // Seed 951.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 6, lines: 2), .create(device: 0, token: 8, lines: 2),
            .backUpServer, .sync(device: 1), .sync(device: 0), .sync(device: 2), .restoreServer,
            .sync(device: 2), .purgeTombstones,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aRestoreHiddenBehindA410IsStillNoticed() async {
        // Seed 1815: the pull after the restore met 410 (a plain resync), and the device kept a
        // version the server had lost as if the server had it.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 2, lines: 2), .sync(device: 1),
            .append(device: 1, note: 1, token: 11), .backUpServer, .concurrentSync(device: 1),
            .restoreServer, .fault(device: 1, .expireCursor), .sync(device: 1),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aCopyKeptAsItsOwnNoteAfterTheBackupIsSentAgainAsOne() async {
        // 10-device seed 79: the rebase after the restore compared title and body, not the copy
        // link, so the server kept the note a copy while the device had made it its own note.
        let plan: [SimulationAction] = [
            .create(device: 4, token: 33, lines: 1), .sync(device: 4), .sync(device: 6),
            .sync(device: 8), .editLine(device: 8, note: 3, line: 3, token: 62),
            .editLine(device: 6, note: 5, line: 0, token: 64), .sync(device: 6), .sync(device: 8),
            .resolve(device: 8, copy: 2, choice: .both), .backUpServer, .sync(device: 8),
            .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: SimulationConfig(devices: 10, steps: 0))
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aDeleteTheServerForgotTwiceIsSentAgain() async {
        // Seed 4726: a delete acknowledged after the backup, then two restores of it; the second
        // listing showed the note alive at an older version than the device's tombstone.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 2, lines: 2), .sync(device: 1), .delete(device: 1, note: 2),
            .backUpServer, .create(device: 1, token: 6, lines: 2), .sync(device: 1), .restoreServer,
            .sync(device: 1), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aWriteForgottenBeforeAnotherWasAcknowledgedIsStillNoticed() async {
        // Seed 5293: after the second restore a new write was acknowledged by the restored server
        // before any pull; had it replaced the earlier, forgotten write's position as the one to
        // check, the pull would have found nothing wrong.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 2, lines: 2), .sync(device: 1), .backUpServer,
            .delete(device: 1, note: 5), .create(device: 1, token: 20, lines: 2), .sync(device: 1),
            .restoreServer, .sync(device: 1), .create(device: 1, token: 22, lines: 3), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aCopySkippedBeforeTheRestoreDoesNotReplaceTheTextSentAfterIt() async {
        // 10-device seed 208: a pull skipped the other device's rename of a note this device had
        // queued an edit of; after the restore the edit was a fresh write, and applying the
        // skipped copy from the forgotten history on top of its answer threw the edit away.
        let plan: [SimulationAction] = [
            .create(device: 1, token: 2, lines: 2), .sync(device: 1), .sync(device: 9), .sync(device: 7),
            .append(device: 1, note: 1, token: 18), .fault(device: 1, .dropRequest), .backUpServer,
            .delete(device: 9, note: 1), .sync(device: 9), .rename(device: 7, note: 5, token: 38),
            .fault(device: 1, .status(503)), .sync(device: 7), .create(device: 1, token: 42, lines: 2),
            .sync(device: 1), .restoreServer,
        ]
        let outcome = await Simulation.run(plan, config: SimulationConfig(devices: 10, steps: 0))
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func aRestoreHiddenBehindA410AfterAListingStillFindsTheNoteSentBeforeIt() async {
        // 10-device seed 956: the device's write was acknowledged, then its pull found another
        // restore and listed everything (which forgot every position to check); the next restore
        // forgot the write, a 410 hid it from the cursor check, and the listing that followed
        // dropped the note as deleted elsewhere. A finished pull's cursor is now kept as the
        // position to check.
        let plan: [SimulationAction] = [
            .create(device: 0, token: 1, lines: 2), .sync(device: 0), .create(device: 1, token: 2, lines: 2),
            .backUpServer, .sync(device: 1), .sync(device: 5), .restoreServer, .rename(device: 1, note: 1, token: 42),
            .sync(device: 1), .sync(device: 5), .sync(device: 5), .sync(device: 3), .restoreServer, .sync(device: 3),
            .sync(device: 3), .sync(device: 5), .create(device: 5, token: 72, lines: 2), .sync(device: 5),
            .restoreServer, .fault(device: 5, .expireCursor), .sync(device: 5),
        ]
        let outcome = await Simulation.run(plan, config: SimulationConfig(devices: 10, steps: 0))
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }
}
