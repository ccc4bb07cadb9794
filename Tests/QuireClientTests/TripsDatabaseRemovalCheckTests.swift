import Foundation
import QuireClient
import QuireTrips
import Testing

/// The removal checks a restored server leaves due (trips migration 11): the trip sends nothing
/// until its forgotten removals were made again, so the check must outlive the run, and the
/// process, that saw the sign of the restore.
@Suite struct TripsDatabaseRemovalCheckTests {
    @Test func aDueCheckOutlivesAReopenUntilItIsDone() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let trip: TripID
        do {
            let database = try fixture.open()
            trip = try await database.createTrip(title: "Lisbon")
            try await database.markRemovalCheckDue(trip)
            try await database.markRemovalCheckDue(trip)
        }

        let reopened = try fixture.open()
        #expect(try await reopened.removalChecksDue() == [trip])
        try await reopened.removalCheckDone(trip)
        #expect(try await reopened.removalChecksDue().isEmpty)
    }

    @Test func aTripThisDeviceDoesNotHoldHasNoCheck() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.markRemovalCheckDue(TripID())
        #expect(try await database.removalChecksDue().isEmpty)
    }

    @Test func aCopyThatGoesTakesItsCheck() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let kept = try await database.createTrip(title: "Lisbon")
        let left = try await database.createTrip(title: "Porto")
        try await database.markRemovalCheckDue(kept)
        try await database.markRemovalCheckDue(left)

        _ = try await database.removeLocalCopy(of: left)

        #expect(try await database.removalChecksDue() == [kept])
    }
}
