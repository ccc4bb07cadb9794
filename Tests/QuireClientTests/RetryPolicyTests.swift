import Foundation
import QuireClient
import Testing

struct RetryPolicyTests {
    let policy = RetryPolicy(base: .seconds(1), cap: .seconds(60))

    @Test(arguments: [(1, 1_000), (2, 2_000), (3, 4_000), (7, 60_000), (40, 60_000)])
    func theCeilingDoublesPerAttemptUpToTheCap(_ attempt: Int, _ ceilingMilliseconds: Int64) {
        #expect(policy.delay(attempt: attempt, random: 1) == .milliseconds(ceilingMilliseconds))
        #expect(policy.delay(attempt: attempt, random: 0) == .milliseconds(ceilingMilliseconds / 10))
    }

    @Test func jitterSpreadsDelaysWithinTheCeiling() {
        let delays = stride(from: 0.0, to: 1.0, by: 0.1).map { policy.delay(attempt: 3, random: $0) }
        #expect(Set(delays).count == delays.count)
        #expect(delays.allSatisfy { $0 >= .milliseconds(400) && $0 <= .seconds(4) })
    }

    @Test func retryAfterWinsWhenItAsksForLonger() {
        #expect(policy.delay(attempt: 1, retryAfter: 30, random: 0.5) == .seconds(30))
        #expect(policy.delay(attempt: 7, retryAfter: 2, random: 1) == .seconds(60))
    }
}
