import Testing

@testable import QuireSimulation

/// Shrunk plans of seeds that found holes in the notes after trips joined the plans (their
/// requests moved the faults onto other notes requests), kept as they were found.
struct NoteCaseTests {
    @Test func aDeleteWhoseAnswerWasReplayedLetsTheCopyAPullSkippedApply() async {
        // Seed 3395: d1's delete applied and its answer was lost; d2's append then brought the
        // note back (edit beats delete), and d1's pull skipped that copy while its delete waited.
        // The resend's answer was a replay, but a delete's answer never said so: the skipped copy
        // was dropped and d1 lost the note the server kept.
        let plan: [SimulationAction] = [
            .create(device: 0, token: 1, lines: 2), .sync(device: 0), .append(device: 1, note: 6, token: 6),
            .sync(device: 2), .editLine(device: 1, note: 2, line: 1, token: 7), .fault(device: 1, .status(503)),
            .append(device: 2, note: 0, token: 8), .sync(device: 0), .create(device: 2, token: 21, lines: 2),
            .sync(device: 0), .sync(device: 1), .fault(device: 1, .dropReply), .delete(device: 1, note: 2),
            .sync(device: 1), .fault(device: 1, .poisonNote(count: 7)), .concurrentSync(device: 2), .sync(device: 1),
        ]
        let outcome = await Simulation.run(plan, config: SimulationConfig(devices: 3, steps: 0))
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }
}
