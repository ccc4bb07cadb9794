import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Issue 12: the login throttle's counters live in the database (both stores), so instances
/// on one database slow an attacker as one, a restart keeps his delay, and the owner on another
/// address still signs in.
struct SharedLoginThrottleTests {
    static let attacker = "203.0.113.7"
    static let owner = "198.51.100.1"
    static let wrongKey = ServerHarness.authKey("ada", password: "wrong")

    static func signIn(
        _ server: NotesServer, authKey: Data = wrongKey, address: String = attacker
    ) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.sessions,
                body: WireJSON.encode(
                    CreateSessionRequestDTO(
                        username: "ada", authKey: authKey.base64EncodedString(), deviceName: "laptop")),
                remoteAddress: address))
    }

    @Test(arguments: StoreKind.allCases)
    func anAttackerAlternatingBetweenTwoInstancesIsSlowedAsOne(_ store: StoreKind) async throws {
        // Given two instances on one database and ada's account.
        let harness = try await ServerHarness(store: store)
        let second = try await harness.anotherInstance()
        _ = await harness.register(ServerHarness.registration("ada"))

        // When an attacker spends the three free failures alternating between them.
        let first = [
            await Self.signIn(harness.server), await Self.signIn(second), await Self.signIn(harness.server),
        ]
        let fourth = await Self.signIn(second)
        let ownerElsewhere = await Self.signIn(second, authKey: ServerHarness.authKey("ada"), address: Self.owner)

        // Then the fourth is slowed on either instance, and the owner elsewhere signs in.
        #expect(first.map(\.status) == [401, 401, 401])
        #expect(fourth.status == 429, "\(fourth.text)")
        #expect(fourth.header("Retry-After") == "1")
        #expect(await Self.signIn(harness.server).status == 429)
        #expect(ownerElsewhere.status == 200, "\(ownerElsewhere.text)")
        await second.shutDown()
    }

    @Test(arguments: StoreKind.allCases)
    func aRestartKeepsTheDelay(_ store: StoreKind) async throws {
        // Given an attacker slowed for 4 s by seven failures.
        let harness = try await ServerHarness(store: store)
        _ = await harness.register(ServerHarness.registration("ada"))
        for _ in 0..<3 { _ = await Self.signIn(harness.server) }
        for _ in 0..<3 {
            harness.clock.advance(by: 60)
            _ = await Self.signIn(harness.server)
        }
        harness.clock.advance(by: 60)
        #expect(await Self.signIn(harness.server).status == 401)

        // When the server restarts.
        await harness.server.shutDown()
        let restarted = try await harness.anotherInstance()
        harness.clock.advance(by: 1)
        let again = await Self.signIn(restarted)

        // Then the delay still holds, and the owner from another address signs in.
        #expect(again.status == 429, "\(again.text)")
        #expect(again.header("Retry-After") == "15")
        let owner = await Self.signIn(restarted, authKey: ServerHarness.authKey("ada"), address: Self.owner)
        #expect(owner.status == 200, "\(owner.text)")
        await restarted.shutDown()
    }

    @Test(arguments: StoreKind.allCases)
    func aSuccessTakesItsAttemptBackAndAQuietHourForgets(_ store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        _ = await harness.register(ServerHarness.registration("ada"))
        for _ in 0..<3 { _ = await Self.signIn(harness.server) }
        #expect(await Self.signIn(harness.server).status == 429)

        harness.clock.advance(by: 3_600)
        let afterAnHour = await Self.signIn(harness.server, authKey: ServerHarness.authKey("ada"))
        let next = await Self.signIn(harness.server)

        #expect(afterAnHour.status == 200, "\(afterAnHour.text)")
        #expect(next.status == 401)
    }
}
