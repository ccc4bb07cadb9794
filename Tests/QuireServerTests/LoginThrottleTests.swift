import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Repeated failed sign-ins lock a username or an address: 429 with `Retry-After`, decided before
/// the key is checked, until the sliding window frees.
struct LoginThrottleTests {
    let harness: ServerHarness
    let wrongKey = ServerHarness.authKey("ada", password: "wrong")

    init() async throws {
        harness = try ServerHarness()
        _ = await harness.register(ServerHarness.registration("ada"))
    }

    @Test func fiveFailuresLockTheUsernameUntilTheWindowPasses() async throws {
        for _ in 0..<5 {
            #expect(await harness.signIn("ada", authKey: wrongKey).status == 401)
        }

        let locked = await harness.signIn("ada")

        #expect(locked.status == 429)
        #expect(locked.errorCode == "too_many_attempts")
        #expect(locked.header("Retry-After") == "900")
        harness.clock.advance(by: 600)
        let stillLocked = await harness.signIn("ada")
        #expect(stillLocked.status == 429)
        #expect(stillLocked.header("Retry-After") == "300")
        harness.clock.advance(by: 300)
        #expect(await harness.signIn("ada").status == 200)
    }

    @Test func lockIsPerUsernameAndCaseInsensitive() async throws {
        _ = await harness.register(ServerHarness.registration("bob"))
        for _ in 0..<5 { _ = await harness.signIn("ADA", authKey: wrongKey) }

        #expect(await harness.signIn("ada").status == 429)
        #expect(await harness.signIn("bob").status == 200)
    }

    @Test func unknownUsernamesAreThrottledTooSoTheLockRevealsNothing() async throws {
        for _ in 0..<5 { _ = await harness.signIn("ghost") }

        #expect(await harness.signIn("ghost").status == 429)
    }

    @Test func successClearsTheUsernamesFailures() async throws {
        for _ in 0..<4 { _ = await harness.signIn("ada", authKey: wrongKey) }
        #expect(await harness.signIn("ada").status == 200)

        for _ in 0..<4 { _ = await harness.signIn("ada", authKey: wrongKey) }

        #expect(await harness.signIn("ada").status == 200)
    }

    @Test func manyUsernamesFromOneAddressLockTheAddress() async throws {
        for index in 0..<20 {
            _ = await harness.signIn("user\(index)", address: "203.0.113.7")
        }

        let sameAddress = await harness.signIn("ada", address: "203.0.113.7")
        let otherAddress = await harness.signIn("ada", address: "198.51.100.1")

        #expect(sameAddress.status == 429)
        #expect(sameAddress.header("Retry-After") == "900")
        #expect(otherAddress.status == 200)
        harness.clock.advance(by: 900)
        #expect(await harness.signIn("ada", address: "203.0.113.7").status == 200)
    }

    @Test func lockedAttemptsDoNotExtendTheLock() async throws {
        for _ in 0..<5 { _ = await harness.signIn("ada", authKey: wrongKey) }
        harness.clock.advance(by: 450)
        for _ in 0..<10 { _ = await harness.signIn("ada", authKey: wrongKey) }

        harness.clock.advance(by: 450)

        #expect(await harness.signIn("ada").status == 200)
    }

    @Test func parallelGuessesCannotOutrunTheCount() async throws {
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask { [harness, wrongKey] in
                    await harness.signIn("ada", authKey: wrongKey).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(results.filter { $0 == 401 }.count == 5)
        #expect(results.filter { $0 == 429 }.count == 7)
    }

    @Test func throttleWindowSlidesFailureByFailure() async throws {
        let clock = ManualClock()
        let throttle = LoginThrottle(
            policy: .init(usernameLimit: 2, addressLimit: 10, window: 100), now: { clock.now })
        _ = await throttle.admit(username: "ada", address: "a")
        clock.advance(by: 40)
        _ = await throttle.admit(username: "ada", address: "a")

        #expect(await throttle.admit(username: "ada", address: "a") == .locked(retryAfter: 60))
        clock.advance(by: 60)
        guard case .allowed = await throttle.admit(username: "ada", address: "a") else {
            Issue.record("the oldest failure left the window; the attempt should be admitted")
            return
        }
        #expect(await throttle.admit(username: "ada", address: "a") == .locked(retryAfter: 40))
    }
}
