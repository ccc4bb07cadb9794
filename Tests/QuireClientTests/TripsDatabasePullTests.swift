import Foundation
import QuireClient
import QuireCrypto
import QuireTestSupport
import QuireTrips
import Testing

/// What the trips feed does to the database: which trips are pulled, and when a trip is caught up.
@Suite struct TripsDatabasePullTests {
    @Test func aTripNewToTheDeviceIsPulledFromItsSnapshotThenOnlyWhenTheFeedMovesAhead() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = TripID()
        let account = AccountID("alice")
        try await database.applyTripsFeed(
            [.init(id: trip, key: .random(), role: "editor", deleted: false, revision: 4)], cursor: Cursor("f1"),
            account: account)
        #expect(try await database.tripsToPull().map(\.cursor) == [nil])

        try await database.replaceWithSnapshot(
            .init(id: trip, key: nil, role: "editor", deleted: false, revision: 4),
            fields: [.init(item: nil, field: "title", value: "Porto", revision: 4)], cursor: Cursor("r4"))
        #expect(try await database.tripsToPull().isEmpty)
        #expect(try await database.trips().map(\.role) == ["editor"])

        // The feed shows a newer revision that changed no field this device can see.
        try await database.applyTripsFeed(
            [.init(id: trip, key: nil, role: "editor", deleted: false, revision: 6)], cursor: Cursor("f2"),
            account: account)
        #expect(try await database.tripsToPull().map(\.cursor) == [Cursor("r4")])
        try await database.applyTripChanges(trip, fields: [], cursor: Cursor("r6"), caughtUpThrough: 6)
        #expect(try await database.tripsToPull().isEmpty)
        #expect(try await database.tripsFeedCursor() == Cursor("f2"))
    }

    @Test func aPageOfAnotherAccountsFeedIsRefused() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(AccountID("alice"))

        await #expect(throws: TripsDatabaseError.self) {
            try await database.applyTripsFeed(
                [.init(id: TripID(), key: .random(), role: "owner", deleted: false, revision: 1)], cursor: Cursor("f1"),
                account: AccountID("bob"))
        }
        #expect(try await database.trips().isEmpty)
        #expect(try await database.tripsFeedCursor() == nil)
    }
}
