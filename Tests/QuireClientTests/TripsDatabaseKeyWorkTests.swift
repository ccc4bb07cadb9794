import Foundation
import QuireClient
import QuireTrips
import Testing

/// The key work a trip waits for before it sends anything (trips migration 11): removals a
/// restored server may have forgotten, and a rotation after a member left. A failed attempt must
/// be tried again, so the work outlives the run, and the process, that learned of it.
@Suite struct TripsDatabaseKeyWorkTests {
    @Test func dueWorkOutlivesAReopenUntilItIsDone() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let trip: TripID
        do {
            let database = try fixture.open()
            trip = try await database.createTrip(title: "Lisbon")
            try await database.markKeyWorkDue(trip, .removalCheck)
            try await database.markKeyWorkDue(trip, .removalCheck)
            try await database.markKeyWorkDue(trip, .rotation)
        }

        let reopened = try fixture.open()
        #expect(try await reopened.keyWorkDue(.removalCheck) == [trip])
        #expect(try await reopened.keyWorkDue(.rotation) == [trip])
        try await reopened.keyWorkDone(trip, .removalCheck)
        #expect(try await reopened.keyWorkDue(.removalCheck).isEmpty)
        #expect(try await reopened.keyWorkDue(.rotation) == [trip], "each kind of work ends on its own")
    }

    @Test func aTripThisDeviceDoesNotHoldHasNoWork() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.markKeyWorkDue(TripID(), .rotation)
        #expect(try await database.keyWorkDue(.rotation).isEmpty)
    }

    @Test func aCopyThatGoesTakesItsWork() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let kept = try await database.createTrip(title: "Lisbon")
        let left = try await database.createTrip(title: "Porto")
        for trip in [kept, left] {
            for work in TripsDatabase.KeyWork.allCases { try await database.markKeyWorkDue(trip, work) }
        }

        _ = try await database.removeLocalCopy(of: left)

        for work in TripsDatabase.KeyWork.allCases { #expect(try await database.keyWorkDue(work) == [kept]) }
    }
}
