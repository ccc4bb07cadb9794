import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `GET /v1/trips?since=&limit=&wait=`: each of the account's trips once, at its newest state,
/// in the order they last changed; and its long-poll.
final class TripsFeedTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""

    /// Builds the server over `store`: every test's first step (a suite's init cannot take the store).
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.token("alice")
    }

    /// A trips feed request from `cursor` holding for `wait` seconds, once the server holds it.
    private func startPoll(since cursor: String, wait: Int) async throws -> Task<TripsFeedPageDTO, any Error> {
        let harness: ServerHarness = self.harness
        let alice = self.alice
        let poll = Task { [harness, alice] in
            try await harness.tripsFeed(token: alice, since: cursor, wait: wait)
        }
        try #require(await eventually { await harness.server.tripNotifier.waiterCount == 1 })
        return poll
    }

    @Test(arguments: StoreKind.allCases) func eachTripComesOnceInTheOrderItLastChanged(store: StoreKind) async throws {
        try await setUp(store)
        let lisbon = try await harness.newTrip(token: alice)
        let porto = try await harness.newTrip(token: alice)
        let faro = try await harness.newTrip(token: alice)
        _ = try await harness.ops(lisbon, [TripValue.op(nil, "title", "Lisbon")], token: alice)
        _ = try await harness.ops(lisbon, [TripValue.op(nil, "notes", "June")], token: alice)

        let first = try await harness.tripsFeed(token: alice, limit: 2)
        let second = try await harness.tripsFeed(token: alice, since: first.nextCursor, limit: 2)

        #expect(first.trips.map(\.id) == [porto, faro])
        #expect(first.hasMore)
        #expect(second.trips.map(\.id) == [lisbon])
        #expect(!second.hasMore)
        #expect(second.trips.first?.revision == 2)
    }

    /// A deleted trip's entry says what its delete had seen: its base, or with the request's own
    /// earlier writes when nobody wrote into the trip after the base (a device's own changes
    /// after it come back to that device as the offer to restore the trip).
    @Test(arguments: StoreKind.allCases) func aDeletedTripSaysWhatItsDeleteHadSeen(store: StoreKind) async throws {
        try await setUp(store)
        let lisbon = try await harness.newTrip(token: alice)
        let porto = try await harness.newTrip(token: alice)
        _ = try await harness.ops(lisbon, [TripValue.op(nil, "title", "Lisbon")], token: alice)  // revision 1
        _ = try await harness.ops(lisbon, [TripValue.deleted(nil, true, base: 0)], token: alice)
        _ = try await harness.ops(
            porto, [TripValue.op(nil, "title", "Porto"), TripValue.deleted(nil, true, base: 0)], token: alice)

        let entries = try await harness.tripsFeed(token: alice).trips
        #expect(entries.first { $0.id == lisbon }?.deleteSeenRevision == 0, "the title was not seen")
        #expect(entries.first { $0.id == porto }?.deleteSeenRevision == 1, "its own request wrote the title")
        let live = try await harness.newTrip(token: alice)
        #expect(try await harness.tripsFeed(token: alice).trips.first { $0.id == live }?.deleteSeenRevision == nil)
    }

    @Test(arguments: StoreKind.allCases) func aCursorBringsOnlyTheTripsThatChangedAfterIt(store: StoreKind) async throws
    {
        try await setUp(store)
        let lisbon = try await harness.newTrip(token: alice)
        _ = try await harness.newTrip(token: alice)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor

        let quiet = try await harness.tripsFeed(token: alice, since: cursor)
        _ = try await harness.ops(lisbon, [TripValue.deleted(nil, true, base: 0)], token: alice)
        // An op that changes nothing does not move the feed.
        _ = try await harness.ops(lisbon, [TripValue.deleted(nil, true, base: 0)], token: alice)
        let changed = try await harness.tripsFeed(token: alice, since: cursor)
        let after = try await harness.tripsFeed(token: alice, since: changed.nextCursor)

        #expect(quiet.trips.isEmpty && quiet.nextCursor == cursor)
        #expect(
            changed.trips == [
                TripEntryDTO(
                    id: lisbon, wrappedKey: TripValue.wrappedKey, role: "owner", deleted: true,
                    revision: 1, deleteSeenRevision: 0)
            ])
        #expect(after.trips.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aWaitingRequestReturnsWhenOneOfTheAccountsTripsChanges(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let started = ContinuousClock.now
        let poll = try await startPoll(since: cursor, wait: 30)

        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: alice)

        let page = try await poll.value
        #expect(page.trips.map(\.id) == [trip])
        // Woken, not timed out, with room for a loaded machine (see LongPollTests).
        #expect(ContinuousClock.now - started < .seconds(29.5))
    }

    @Test(arguments: StoreKind.allCases) func aNewTripWakesTheAccountsWaitingRequest(store: StoreKind) async throws {
        try await setUp(store)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let poll = try await startPoll(since: cursor, wait: 30)

        let trip = try await harness.newTrip(token: alice)

        #expect(try await poll.value.trips.map(\.id) == [trip])
    }

    @Test(arguments: StoreKind.allCases) func neitherANoteNorAnotherAccountsTripWakesIt(store: StoreKind) async throws {
        try await setUp(store)
        let bob = try await harness.token("bob")
        let bobsTrip = try await harness.newTrip(token: bob)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let started = ContinuousClock.now
        let poll = try await startPoll(since: cursor, wait: 1)

        _ = await harness.put(ServerHarness.uuid(), payload: "a note", base: nil, token: alice)
        _ = try await harness.ops(bobsTrip, [TripValue.op(nil, "title", "Bob's")], token: bob)

        let page = try await poll.value
        #expect(page.trips.isEmpty)
        #expect(ContinuousClock.now - started >= .milliseconds(900))
    }

    @Test(arguments: StoreKind.allCases) func shutdownEndsATripsPoll(store: StoreKind) async throws {
        try await setUp(store)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let poll = try await startPoll(since: cursor, wait: 30)

        await harness.server.wakeAllWaiters()

        #expect(try await poll.value.trips.isEmpty)
    }
}
