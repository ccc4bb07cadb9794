import Foundation
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Long-polls are capped per account, and a poll whose client went away stops counting
/// (issue 12, availability 2).
struct LongPollLimitTests {
    static func harness(cap: Int) throws -> ServerHarness {
        var configuration = ServerHarness.configuration
        configuration.longPollsPerAccount = cap
        return try ServerHarness(configuration: configuration)
    }

    @Test func aLongPollPastTheAccountsCapAnswersAtOnceWithAnEmptyPageAndRetryAfter() async throws {
        let harness = try Self.harness(cap: 2)
        let alice = try await harness.token("alice")
        let bob = try await harness.token("bob")
        let cursor = try await harness.changes(token: alice).nextCursor
        let polls = (0..<2).map { _ in
            Task { [harness, alice] in try await harness.changes(token: alice, since: cursor, wait: 30) }
        }
        try #require(await eventually(timeout: .seconds(10)) { await harness.server.notifier.waiterCount == 2 })

        let started = ContinuousClock.now
        let third = await harness.changesResponse(token: alice, since: cursor, wait: 5)
        let elapsed = ContinuousClock.now - started

        #expect(elapsed < .seconds(2), "the poll past the cap waited \(elapsed)")
        #expect(third.status == 200)
        #expect(try third.decoded(ChangesPageDTO.self).changes.isEmpty)
        #expect(third.header("Retry-After").flatMap(Int.init) ?? 0 >= 1)
        // Another account has its own cap (and its own cursor: cursors are sealed to their account).
        let bobsCursor = try await harness.changes(token: bob).nextCursor
        let bobsPoll = Task { [harness, bob] in
            await harness.changesResponse(token: bob, since: bobsCursor, wait: 30)
        }
        #expect(await eventually(timeout: .seconds(10)) { await harness.server.notifier.waiterCount == 3 })
        await harness.server.wakeAllWaiters()
        for poll in polls { _ = try await poll.value }
        #expect(await bobsPoll.value.header("Retry-After") == nil)
    }

    @Test func aTripsFeedLongPollPastTheCapAnswersAtOnceWithRetryAfter() async throws {
        let harness = try Self.harness(cap: 1)
        let alice = try await harness.token("alice")
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let held = Task { [harness, alice] in await harness.tripsFeedResponse(token: alice, since: cursor, wait: 30) }
        try #require(
            await eventually(timeout: .seconds(10)) { await harness.server.tripNotifier.waiterCount == 1 })

        let started = ContinuousClock.now
        let second = await harness.tripsFeedResponse(token: alice, since: cursor, wait: 5)

        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(second.status == 200)
        #expect(try second.decoded(TripsFeedPageDTO.self).trips.isEmpty)
        #expect(second.header("Retry-After") == "5")
        await harness.server.wakeAllWaiters()
        #expect(await held.value.header("Retry-After") == nil)
    }

    @Test func aLongPollWhoseClientClosedTheConnectionFreesItsSlot() async throws {
        let harness = try Self.harness(cap: 1)
        let alice = try await harness.token("alice")
        let cursor = try await harness.changes(token: alice).nextCursor
        let host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
        let target = "\(WireRoutes.changes)?since=\(cursor)&wait=30"
        let client = try LoopbackSocket(port: host.port)
        client.send(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(alice)\r\n\r\n")
        try #require(await eventually(timeout: .seconds(10)) { await harness.server.notifier.waiterCount == 1 })

        client.shutDown()

        #expect(await eventually(timeout: .seconds(3)) { await harness.server.notifier.waiterCount == 0 })
        let next = await onThread { [port = host.port] in
            LoopbackExchange.send(
                port: port, "GET", "\(WireRoutes.changes)?since=\(cursor)&wait=1",
                headers: ["Authorization": "Bearer \(alice)"], timeout: .seconds(10))
        }
        #expect(next?.status == 200)
        #expect(next?.headers["retry-after"] == nil, "the closed poll still held the account's only slot")
        await host.stop()
    }
}
