import Testing

@testable import QuireSimulation

/// Shrunk plans of seeds that found holes once devices refreshed real session tokens (issue 9,
/// defect 9: lost refresh replies), kept as they were found.
struct TokenRefreshCaseTests {
    static let config = SimulationConfig(devices: 3, steps: 0)

    @Test func aDuplicatedRetryOfALostRefreshSignsOutAndTheDeviceSignsInAgain() async {
        // Seed 22 once token refreshes were simulated: the refresh's answer was lost, and its
        // retry was delivered twice (a second use of the rotated token: a replay by the rules).
        let plan: [SimulationAction] = [
            .create(device: 0, token: 1, lines: 2), .append(device: 2, note: 0, token: 12),
            .append(device: 1, note: 4, token: 13),
            .fault(device: 0, .refuseWrite(422)), .editLine(device: 2, note: 6, line: 2, token: 14),
            .append(device: 2, note: 2, token: 15), .fault(device: 0, .duplicate),
            .editLine(device: 1, note: 0, line: 2, token: 20),
            .fault(device: 0, .loseRefreshReply), .fault(device: 1, .throttled), .sync(device: 0),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }

    @Test func faultsMeantForNoteWritesNeverHitATokenRefresh() async {
        // Seed 7 once token refreshes were simulated: a 422 meant for the next note write hit
        // the refresh (a POST too) and signed the device out.
        let plan: [SimulationAction] = [
            .fault(device: 1, .refuseWrite(422)), .create(device: 2, token: 10, lines: 2), .crash(device: 1),
            .fault(device: 1, .status(500)), .create(device: 0, token: 22, lines: 2), .delete(device: 2, note: 2),
            .reconnect(device: 0), .concurrentSync(device: 1), .fault(device: 1, .duplicate), .sync(device: 1),
            .sync(device: 1),
        ]
        let outcome = await Simulation.run(plan, config: Self.config)
        #expect(outcome.failure == nil, "\(outcome.failure.map { "\($0)" } ?? "")")
    }
}
