import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `GET /v1/trips/{id}/changes` and `GET /v1/trips/{id}`: paging in revision order, the
/// snapshot's cursor, and the purge of deleted items with its 410.
final class TripChangesTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var trip = ""

    /// Builds the server over `store`: every test's first step (a suite's init cannot take the store).
    func setUp(_ store: StoreKind) async throws {
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip(store)
        self.harness = harness
        self.alice = alice
        self.trip = trip
    }

    /// Every page from `cursor` on: the fields in order and each page's size and hasMore.
    private func allPages(from cursor: String?, limit: Int) async throws -> (
        fields: [TripFieldDTO], pages: [(Int, Bool)], last: String
    ) {
        var fields: [TripFieldDTO] = []
        var pages: [(Int, Bool)] = []
        var cursor = cursor
        repeat {
            let page = try await harness.tripChanges(trip, cursor: cursor, limit: limit, token: alice)
            fields += page.changes
            pages.append((page.changes.count, page.hasMore))
            cursor = page.nextCursor
            if !page.hasMore { break }
        } while pages.count < 100
        return (fields, pages, cursor ?? "")
    }

    @Test(arguments: StoreKind.allCases) func changesComeInRevisionOrderEachFieldOnceAtItsNewestValue(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let item = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "start", "10:00")], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Dinner", base: 2)], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "location", "Bairro Alto")], token: alice)

        let (fields, pages, _) = try await allPages(from: nil, limit: 2)

        #expect(pages.map(\.0) == [2, 2])
        #expect(pages.map(\.1) == [true, false])
        #expect(fields.map(\.revision) == [1, 3, 4, 5])
        #expect(fields.map(\.field) == ["title", "start", "title", "location"])
        #expect(fields[2].value == TripValue.sealed("Dinner"))
        #expect(fields[2].valueHash == TripValue.hash("Dinner"))
        #expect(fields[0].item == nil)
    }

    @Test(arguments: StoreKind.allCases) func aCursorContinuesWithOnlyWhatChangedAfterIt(store: StoreKind) async throws
    {
        try await setUp(store)
        let item = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        let cursor = try await harness.tripChanges(trip, token: alice).nextCursor

        let empty = try await harness.tripChanges(trip, cursor: cursor, token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "notes", "book ahead")], token: alice)
        // An op that sets the value already stored writes nothing: no change travels.
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch", base: 1)], token: alice)
        let next = try await harness.tripChanges(trip, cursor: cursor, token: alice)

        #expect(empty.changes.isEmpty && !empty.hasMore && empty.nextCursor == cursor)
        #expect(next.changes.map(\.field) == ["notes"])
        #expect(next.changes.map(\.revision) == [2])
    }

    @Test(arguments: StoreKind.allCases) func theSnapshotHoldsEveryFieldWithTombstonesAndItsCursorContinues(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let kept = ServerHarness.uuid()
        let gone = ServerHarness.uuid()
        _ = try await harness.ops(
            trip,
            [
                TripValue.op(kept, "title", "Lunch"), TripValue.op(gone, "title", "Museum"),
                TripValue.deleted(gone, true, base: 0),
            ], token: alice)

        let snapshot = try await harness.snapshot(trip, token: alice)
        _ = try await harness.ops(trip, [TripValue.op(kept, "start", "10:00")], token: alice)
        let after = try await harness.tripChanges(trip, cursor: snapshot.cursor, token: alice)

        #expect(snapshot.trip.id == trip && snapshot.trip.revision == 3 && snapshot.trip.role == "owner")
        #expect(snapshot.fields.map(\.item) == [kept, gone, gone])
        #expect(snapshot.fields.last?.value == "true")
        #expect(after.changes.map(\.field) == ["start"])
    }

    @Test(arguments: StoreKind.allCases) func aPurgeOfDeletedItemsExpiresOlderCursorsAndTheSnapshotGoesOn(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let kept = ServerHarness.uuid()
        let gone = ServerHarness.uuid()
        _ = try await harness.ops(
            trip, [TripValue.op(kept, "title", "Lunch"), TripValue.op(gone, "title", "Museum")],
            token: alice)
        let oldCursor = try await harness.tripChanges(trip, token: alice).nextCursor
        _ = try await harness.ops(trip, [TripValue.deleted(gone, true, base: 0)], token: alice)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")

        let purged = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))
        let expired = await harness.tripChangesResponse(trip, cursor: oldCursor, token: token)
        let snapshot = try await harness.snapshot(trip, token: token)
        _ = try await harness.ops(trip, [TripValue.op(kept, "notes", "book ahead")], token: token)
        let after = try await harness.tripChanges(trip, cursor: snapshot.cursor, token: token)

        #expect(purged == 1)
        #expect(expired.status == 410)
        #expect(expired.errorCode == "cursor_expired")
        #expect(snapshot.fields.map(\.item) == [kept])
        #expect(snapshot.trip.revision == 3)
        #expect(after.changes.map(\.field) == ["notes"])
        #expect(after.changes.map(\.revision) == [4])
    }

    @Test(arguments: StoreKind.allCases) func aPurgeKeepsRecentDeletesAndTheirCursors(store: StoreKind) async throws {
        try await setUp(store)
        let gone = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(gone, "title", "Museum")], token: alice)
        let cursor = try await harness.tripChanges(trip, token: alice).nextCursor
        _ = try await harness.ops(trip, [TripValue.deleted(gone, true, base: 0)], token: alice)

        let purged = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))
        let page = try await harness.tripChanges(trip, cursor: cursor, token: alice)

        #expect(purged == 0)
        #expect(page.changes.map(\.value) == ["true"])
    }

    @Test(arguments: StoreKind.allCases) func anEditOfAPurgedItemMeetsItsDelete(store: StoreKind) async throws {
        try await setUp(store)
        let gone = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(gone, "title", "Museum")], token: alice)
        _ = try await harness.ops(trip, [TripValue.deleted(gone, true, base: 0)], token: alice)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))

        let edit = try await harness.ops(
            trip, [TripValue.op(gone, "title", "Museum of Art", base: 1)], token: token)

        #expect(
            edit.results == [
                TripOpResultDTO(
                    status: .conflict, conflictField: "deleted", serverValue: "true",
                    serverRevision: 2)
            ])
        #expect(try await harness.snapshot(trip, token: token).fields.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aDeletedTripKeepsOnlyItsTombstoneAfterThePurge(store: StoreKind)
        async throws
    {
        try await setUp(store)
        _ = try await harness.ops(
            trip, [TripValue.op(nil, "title", "Lisbon"), TripValue.op(ServerHarness.uuid(), "title", "Lunch")],
            token: alice)
        _ = try await harness.ops(trip, [TripValue.deleted(nil, true, base: 0)], token: alice)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")

        let purged = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))
        let snapshot = try await harness.snapshot(trip, token: token)

        #expect(purged == 1)
        #expect(snapshot.trip.deleted)
        #expect(snapshot.fields.map(\.field) == ["deleted"])
        #expect(snapshot.fields.map(\.value) == ["true"])
    }
}
