import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Registrations are limited per client address with a token bucket: past it, 429
/// `too_many_registrations` with `Retry-After`, before any slow hash (issue 12, item 8).
struct RegistrationLimitTests {
    let harness: ServerHarness

    init() throws {
        var configuration = ServerHarness.configuration
        configuration.registrationLimit = RegistrationLimit.Policy(burst: 3, interval: 60)
        harness = try ServerHarness(configuration: configuration)
    }

    func register(_ name: String, address: String) async -> HTTPResponse {
        await harness.post(WireRoutes.accounts, ServerHarness.registration(name), address: address)
    }

    @Test func registrationsPastTheBurstGet429WithRetryAfter() async throws {
        for index in 0..<3 {
            #expect(await register("user\(index)", address: "203.0.113.7").status == 201)
        }

        let refused = await register("user3", address: "203.0.113.7")

        #expect(refused.status == 429)
        #expect(refused.errorCode == "too_many_registrations")
        #expect(refused.header("Retry-After") == "60")
        #expect(await register("user3", address: "198.51.100.1").status == 201, "another address is not limited")
    }

    @Test func theBucketRefillsOneRegistrationPerInterval() async throws {
        for index in 0..<4 { _ = await register("user\(index)", address: "203.0.113.7") }

        harness.clock.advance(by: 30)
        #expect(await register("late0", address: "203.0.113.7").header("Retry-After") == "30")
        harness.clock.advance(by: 30)

        #expect(await register("late1", address: "203.0.113.7").status == 201)
        #expect(await register("late2", address: "203.0.113.7").status == 429)
    }
}
