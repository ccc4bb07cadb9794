import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `wait=` on the changes feed: held until the account changes, the time passes, or shutdown.
struct LongPollTests {
    let harness: ServerHarness
    let alice: String
    let bob: String

    init() async throws {
        harness = try ServerHarness()
        alice = try await harness.token("alice")
        bob = try await harness.token("bob")
    }

    private func waiterCount() async -> Int {
        await harness.server.notifier.waiterCount
    }

    @Test func waitingRequestReturnsWhenItsAccountChanges() async throws {
        let cursor = try await harness.changes(token: alice).nextCursor
        let started = ContinuousClock.now
        let poll = Task { [harness, alice] in
            try await harness.changes(token: alice, since: cursor, wait: 30)
        }
        try #require(await eventually { await waiterCount() == 1 })

        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "new", base: nil, token: alice)

        let page = try await poll.value
        #expect(page.changes.map(\.id) == [id])
        // Woken, not timed out: before its 30 s wait ends, with room for a loaded machine (the
        // full suite on two cores once took 27.7 s from the first request to the answer).
        #expect(ContinuousClock.now - started < .seconds(29.5))
    }

    @Test func otherAccountsChangeDoesNotWake() async throws {
        let cursor = try await harness.changes(token: alice).nextCursor
        let started = ContinuousClock.now
        let poll = Task { [harness, alice] in
            try await harness.changes(token: alice, since: cursor, wait: 1)
        }
        try #require(await eventually { await waiterCount() == 1 })

        _ = await harness.put(ServerHarness.uuid(), payload: "bob's", base: nil, token: bob)

        let page = try await poll.value
        #expect(page.changes.isEmpty)
        #expect(ContinuousClock.now - started >= .milliseconds(900))
    }

    @Test func waitElapsesWithEmptyPage() async throws {
        let cursor = try await harness.changes(token: alice).nextCursor
        let started = ContinuousClock.now

        let page = try await harness.changes(token: alice, since: cursor, wait: 1)

        let elapsed = ContinuousClock.now - started
        #expect(page.changes.isEmpty && page.nextCursor == cursor)
        // The upper bound only catches a wait that is ignored; it is loose so a loaded machine passes.
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(20))
    }

    @Test func nonEmptyPageIsNotHeld() async throws {
        _ = await harness.put(ServerHarness.uuid(), payload: "there", base: nil, token: alice)
        let started = ContinuousClock.now

        let page = try await harness.changes(token: alice, wait: 30)

        #expect(page.changes.count == 1)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func shutdownResumesEveryWaiter() async throws {
        let cursor = try await harness.changes(token: alice).nextCursor
        let polls = (0..<3).map { _ in
            Task { [harness, alice] in
                await harness.changesResponse(token: alice, since: cursor, wait: 30)
            }
        }
        try #require(await eventually { await waiterCount() == 3 })

        await harness.server.wakeAllWaiters()

        for poll in polls {
            #expect(await poll.value.status == 200)
        }
        let started = ContinuousClock.now
        _ = try await harness.changes(token: alice, since: cursor, wait: 30)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func cancelledPollEndsEarly() async throws {
        let cursor = try await harness.changes(token: alice).nextCursor
        let poll = Task { [harness, alice] in
            await harness.changesResponse(token: alice, since: cursor, wait: 30)
        }
        try #require(await eventually { await waiterCount() == 1 })

        poll.cancel()

        #expect(await poll.value.status == 200)
        #expect(await waiterCount() == 0)
    }
}
