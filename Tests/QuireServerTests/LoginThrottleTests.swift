import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Repeated failed sign-ins slow the (username, address) and the address with a growing delay:
/// 429 with `Retry-After`, decided before the key is checked. Nothing locks a username for
/// every address: the owner elsewhere still signs in (issue 12, item 6).
struct LoginThrottleTests {
    let harness: ServerHarness
    let wrongKey = ServerHarness.authKey("ada", password: "wrong")
    let attacker = "203.0.113.7"
    let owner = "198.51.100.1"

    init() async throws {
        harness = try ServerHarness()
        _ = await harness.register(ServerHarness.registration("ada"))
    }

    @Test func ownerSignsInFromAnotherAddressWhileTheAttackersAddressIsThrottled() async throws {
        for _ in 0..<30 { _ = await harness.signIn("ada", authKey: wrongKey, address: attacker) }

        let attackerAgain = await harness.signIn("ada", address: attacker)
        let ownerElsewhere = await harness.signIn("ada", address: owner)

        #expect(attackerAgain.status == 429)
        #expect(ownerElsewhere.status == 200)
    }

    @Test func theSameAddressIsSlowedWithAGrowingRetryAfter() async throws {
        for _ in 0..<3 {
            #expect(await harness.signIn("ada", authKey: wrongKey, address: attacker).status == 401)
        }
        var waits: [String?] = []
        for _ in 0..<4 {
            let slowed = await harness.signIn("ada", authKey: wrongKey, address: attacker)
            #expect(slowed.status == 429)
            #expect(slowed.errorCode == "too_many_attempts")
            waits.append(slowed.header("Retry-After"))
            harness.clock.advance(by: TimeInterval(slowed.header("Retry-After").flatMap(Int.init) ?? 0))
            #expect(await harness.signIn("ada", authKey: wrongKey, address: attacker).status == 401)
        }

        #expect(waits == ["1", "2", "4", "8"])
    }

    @Test func theDelayStopsGrowingAtFifteenMinutes() async throws {
        for _ in 0..<20 {
            _ = await harness.signIn("ada", authKey: wrongKey, address: attacker)
            harness.clock.advance(by: 900)
        }

        let slowed = await harness.signIn("ada", authKey: wrongKey, address: attacker)
        #expect(slowed.status == 401, "waiting the longest delay out is always enough")
        #expect(await harness.signIn("ada", address: attacker).header("Retry-After") == "900")
    }

    @Test func theRightPasswordFromAnUnthrottledAddressAlwaysWorks() async throws {
        for index in 0..<50 {
            _ = await harness.signIn("ada", authKey: wrongKey, address: "203.0.113.\(index)")
        }

        #expect(await harness.signIn("ada", address: owner).status == 200)
    }

    @Test func slowedAttemptsDoNotExtendTheDelay() async throws {
        for _ in 0..<4 { _ = await harness.signIn("ada", authKey: wrongKey, address: attacker) }
        for _ in 0..<10 { _ = await harness.signIn("ada", authKey: wrongKey, address: attacker) }

        harness.clock.advance(by: 1)

        #expect(await harness.signIn("ada", address: attacker).status == 200)
    }

    @Test func failuresAreForgottenAfterAQuietHour() async throws {
        for _ in 0..<12 {
            _ = await harness.signIn("ada", authKey: wrongKey, address: attacker)
            harness.clock.advance(by: 60)
        }
        harness.clock.advance(by: 3600)

        for _ in 0..<3 {
            #expect(await harness.signIn("ada", authKey: wrongKey, address: attacker).status == 401)
        }
    }

    @Test func throttleIsPerUsernameAndCaseInsensitive() async throws {
        _ = await harness.register(ServerHarness.registration("bob"))
        for _ in 0..<3 { _ = await harness.signIn("ADA", authKey: wrongKey, address: attacker) }

        #expect(await harness.signIn("ada", address: attacker).status == 429)
        #expect(await harness.signIn("bob", address: attacker).status == 200)
    }

    @Test func unknownUsernamesAreThrottledTooSoTheDelayRevealsNothing() async throws {
        for _ in 0..<3 { _ = await harness.signIn("ghost", address: attacker) }

        #expect(await harness.signIn("ghost", address: attacker).status == 429)
    }

    @Test func successForgetsTheFailuresOfThatUsernameAndAddress() async throws {
        for _ in 0..<2 { _ = await harness.signIn("ada", authKey: wrongKey, address: owner) }
        #expect(await harness.signIn("ada", address: owner).status == 200)

        for _ in 0..<2 { _ = await harness.signIn("ada", authKey: wrongKey, address: owner) }

        #expect(await harness.signIn("ada", address: owner).status == 200)
    }

    @Test func manyUsernamesFromOneAddressSlowTheAddress() async throws {
        for index in 0..<20 {
            _ = await harness.signIn("user\(index)", address: attacker)
        }

        let sameAddress = await harness.signIn("ada", address: attacker)
        let otherAddress = await harness.signIn("ada", address: owner)

        #expect(sameAddress.status == 429)
        #expect(sameAddress.header("Retry-After") == "1")
        #expect(otherAddress.status == 200)
        harness.clock.advance(by: 1)
        #expect(await harness.signIn("ada", address: attacker).status == 200)
    }

    @Test func parallelGuessesCannotOutrunTheCount() async throws {
        let results = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask { [harness, wrongKey, attacker] in
                    await harness.signIn("ada", authKey: wrongKey, address: attacker).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }

        #expect(results.filter { $0 == 401 }.count == 3)
        #expect(results.filter { $0 == 429 }.count == 9)
    }

    @Test func delayDoublesFromTheLatestFailure() async throws {
        let clock = ManualClock()
        let throttle = LoginThrottle(
            policy: .init(pairFreeFailures: 1, addressFreeFailures: 10, baseDelay: 10), now: { clock.now })
        _ = try await throttle.admit(username: "ada", address: "a")

        #expect(try await throttle.admit(username: "ada", address: "a") == .locked(retryAfter: 10))
        clock.advance(by: 10)
        guard case .allowed = try await throttle.admit(username: "ada", address: "a") else {
            Issue.record("the delay passed; the attempt should be admitted")
            return
        }
        clock.advance(by: 5)
        #expect(try await throttle.admit(username: "ada", address: "a") == .locked(retryAfter: 15))
    }
}
