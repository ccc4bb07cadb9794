import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import QuireTrips
import Testing

/// What screens watch: the trips list, one trip, the pending count and the status, each replayed
/// and then published after every commit that changes it.
@Suite struct TripsDatabaseStreamTests {
    @Test func aTripsUpdatesReplayItThenFollowEachEdit() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        var updates = database.tripUpdates(trip).makeAsyncIterator()

        let first = try #require(await updates.next())
        #expect(first?.items.isEmpty == true)
        let lunch = try await database.addItem(to: trip, [.title: "Lunch", .order: "a"])
        let second = try #require(await updates.next())
        #expect(second?.items.map(\.id) == [lunch])
        try await database.deleteTrip(trip)
        let third = try #require(await updates.next())
        #expect(third == nil)
    }

    @Test func theListAndThePendingCountFollowEdits() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        var list = database.tripList().makeAsyncIterator()
        var pending = database.pendingCount().makeAsyncIterator()
        #expect(await list.next() == [])
        #expect(await pending.next() == 0)

        let trip = try await database.createTrip(title: "Lisbon", startDate: LocalDate("2027-06-09"))
        let summary = try #require(await list.next()?.first)
        #expect(summary.id == trip)
        #expect(summary.title == "Lisbon")
        #expect(summary.startDate == LocalDate("2027-06-09"))
        #expect(summary.pendingCount == 2)
        #expect(await pending.next() == 2)
    }

    @Test func aTripsFailedRunShowsInTheDevicesStatusBesideSyncedNotes() {
        let notes = SyncStatusRecord(
            run: SyncRunRecord(lastSyncedAt: Date(timeIntervalSince1970: 100)), pendingCount: 1, conflictCount: 0)
        var run = SyncRunRecord(
            lastSyncedAt: Date(timeIntervalSince1970: 50), lastRunFailed: true,
            lastError: "Could not reach the server.",
            lastFailureKind: .unreachable)
        run.metrics.runs = 3
        let trips = TripsStatusRecord(run: run, pendingCount: 4, conflictCount: 2, rejectedCount: 1, stuckCount: 0)

        let status = LocalSyncStatusRepository.status(notes, trips: trips)
        #expect(status.pendingCount == 5)
        #expect(status.tripPendingCount == 4)
        #expect(status.tripConflictCount == 2)
        #expect(status.tripRejectedCount == 1)
        #expect(status.lastRunFailed)
        #expect(status.isOffline)
        #expect(status.lastSyncedAt == Date(timeIntervalSince1970: 50))
    }
}
