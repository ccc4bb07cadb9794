import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// One account can never read or change another's trip (promise 7): every trip route answers a
/// trip the caller is not a member of exactly as one that does not exist, whatever ids and
/// cursors it borrows.
final class TripIsolationTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var bob = ""
    private(set) var trip = ""
    let item = ServerHarness.uuid()

    /// Builds the server over `store`: every test's first step (a suite's init cannot take the store).
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.token("alice")
        bob = try await harness.token("bob")
        trip = try await harness.newTrip(token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
    }

    /// Bob's answer on Alice's trip, and his answer on a trip id nobody has, for each route.
    private func bothAnswers(_ ask: (String) async -> HTTPResponse) async -> (
        HTTPResponse, HTTPResponse
    ) {
        (await ask(trip), await ask(ServerHarness.uuid()))
    }

    @Test(arguments: StoreKind.allCases) func snapshotOfAnotherAccountsTripIsNotFound(store: StoreKind) async throws {
        try await setUp(store)
        let (borrowed, unknown) = await bothAnswers { await harness.snapshotResponse($0, token: bob) }

        #expect(borrowed.status == 404)
        #expect(borrowed.errorCode == "not_found")
        #expect(borrowed.body == unknown.body)
    }

    @Test(arguments: StoreKind.allCases) func changesOfAnotherAccountsTripAreNotFoundWithItsOwnCursor(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let cursor = try await harness.tripChanges(trip, token: alice).nextCursor

        // Alice's cursor is sealed for her: from bob it is a bad cursor (400), on her trip as on
        // a trip that does not exist, so the answer tells nothing of the trip.
        let (withCursor, unknownWithCursor) = await bothAnswers {
            await harness.tripChangesResponse($0, cursor: cursor, token: bob)
        }
        let (withoutCursor, unknown) = await bothAnswers { await harness.tripChangesResponse($0, token: bob) }

        #expect(withCursor.status == 400 && withCursor.errorCode == "invalid_cursor")
        #expect(withCursor.body == unknownWithCursor.body)
        #expect(withoutCursor.status == 404)
        #expect(withoutCursor.body == unknown.body)
    }

    @Test(arguments: StoreKind.allCases) func opsOnAnotherAccountsTripAreNotFoundAndChangeNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let (borrowed, unknown) = await bothAnswers {
            await harness.opsResponse($0, [TripValue.op(item, "title", "Bob's", base: 1)], token: bob)
        }

        #expect(borrowed.status == 404)
        #expect(borrowed.body == unknown.body)
        let fields = try await harness.snapshot(trip, token: alice).fields
        #expect(fields.map(\.value) == [TripValue.sealed("Lunch")])
    }

    @Test(arguments: StoreKind.allCases) func anotherAccountsOpIDIsNotReplayedToIt(store: StoreKind) async throws {
        try await setUp(store)
        let opID = ServerHarness.uuid()
        let ops = [TripValue.op(item, "notes", "Alice's")]
        let mine = await harness.opsResponse(trip, ops, opID: opID, token: alice)
        let bobsTrip = try await harness.newTrip(token: bob)

        let onAlices = await harness.opsResponse(trip, ops, opID: opID, token: bob)
        let onHis = await harness.opsResponse(bobsTrip, ops, opID: opID, token: bob)

        #expect(mine.status == 200)
        #expect(onAlices.status == 404)
        #expect(onHis.status == 200)
        #expect(onHis.header("Idempotent-Replayed") == nil)
    }

    @Test(arguments: StoreKind.allCases) func aCursorOfAnotherTripIsInvalidOnOnesOwn(store: StoreKind) async throws {
        try await setUp(store)
        let alicesCursor = try await harness.tripChanges(trip, token: alice).nextCursor
        let bobsTrip = try await harness.newTrip(token: bob)
        // Bob's trip is past the revision and position Alice's cursor names: only the cursor's
        // binding to her trip tells it apart.
        _ = try await harness.ops(
            bobsTrip, [TripValue.op(nil, "title", "Porto"), TripValue.op(nil, "notes", "May")],
            token: bob)

        let response = await harness.tripChangesResponse(bobsTrip, cursor: alicesCursor, token: bob)
        let ownTrip = try await harness.newTrip(token: alice)
        _ = try await harness.ops(
            ownTrip, [TripValue.op(nil, "title", "Faro"), TripValue.op(nil, "notes", "July")],
            token: alice)
        let onOwnOtherTrip = await harness.tripChangesResponse(
            ownTrip, cursor: alicesCursor, token: alice)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_cursor")
        #expect(onOwnOtherTrip.errorCode == "invalid_cursor")
    }

    @Test(arguments: StoreKind.allCases) func creatingAnotherAccountsTripIsAConflictThatChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let response = await harness.putTrip(trip, token: bob)

        #expect(response.status == 409)
        #expect(response.errorCode == "trip_exists")
        #expect(try await harness.tripsFeed(token: bob).trips.isEmpty)
        #expect(try await harness.tripsFeed(token: alice).trips.map(\.id) == [trip])
    }

    @Test(arguments: StoreKind.allCases) func theTripsFeedListsOnlyTheAccountsOwnTrips(store: StoreKind) async throws {
        try await setUp(store)
        let bobsTrip = try await harness.newTrip(token: bob)
        let alicesCursor = try await harness.tripsFeed(token: alice).nextCursor

        let bobs = try await harness.tripsFeed(token: bob)
        let bobWithAlicesCursor = await harness.tripsFeedResponse(token: bob, since: alicesCursor)

        #expect(bobs.trips.map(\.id) == [bobsTrip])
        // Alice's cursor is sealed for her feed: bob's feed refuses it as any bad cursor.
        #expect(bobWithAlicesCursor.status == 400 && bobWithAlicesCursor.errorCode == "invalid_cursor")
    }
}
