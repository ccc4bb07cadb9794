import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// Moves and inserts by position (seed 002 §4): one field of one item, or a rebalance of the group
/// when the neighbours leave no room; the trip read back as days, by time first.
@Suite struct TripsDatabasePlacingTests {
    @Test func aMoveAfterAnotherItemWritesOneOrderKeyBetweenItsNewNeighbours() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        let lunch = try await database.addItem(to: trip, [.title: "Lunch"], at: .last)
        try await database.addItem(to: trip, [.title: "Museum"], at: .last)
        let tram = try await database.addItem(to: trip, [.title: "Tram 28"], at: .last)
        _ = try await database.acknowledgeNextRequest(of: trip, from: 0)

        try await database.moveItem(tram, to: .after(lunch.description))

        #expect(try await database.trip(trip)?.items.map(\.title) == ["Lunch", "Tram 28", "Museum"])
        let request = try #require(try await database.nextRequest(for: trip, limit: 200))
        #expect(request.ops.map(\.field) == ["order"])
        #expect(request.ops.map(\.item) == [tram])
    }

    @Test func anInsertBetweenTwoEqualKeysRebalancesTheGroupInDisplayOrder() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        // Two devices inserted at one spot offline and made the same key.
        let ids = [ItemID(), ItemID()].sorted()
        try await database.addItem(to: trip, [.title: "first", .order: "a1"], id: ids[0])
        try await database.addItem(to: trip, [.title: "second", .order: "a1"], id: ids[1])

        try await database.addItem(to: trip, [.title: "between"], at: .after(ids[0].description))

        let items = try #require(try await database.trip(trip)?.items)
        #expect(items.map(\.title) == ["first", "between", "second"])
        #expect(zip(items, items.dropFirst()).allSatisfy { OrderKey.precedes($0.order, $1.order) })
    }

    @Test func aTripReadsAsDaysByTimeFirstWithUnscheduledItemsLast() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        try await database.addItem(to: trip, [.title: "Pack", .order: "a0"])
        try await database.addItem(
            to: trip, [.title: "Dinner", .order: "a0", .start: "2027-06-10T20:00 Europe/Lisbon"])
        try await database.addItem(to: trip, [.title: "Lunch", .order: "z0", .start: Lisbon.noon])
        try await database.addItem(to: trip, [.title: "Flight", .start: "2027-06-09T08:00 America/New_York"])

        let days = try #require(try await database.trip(trip)?.days)
        #expect(days.map(\.group.description) == ["2027-06-09", "2027-06-10", "Unscheduled"])
        #expect(days.map { $0.items.map(\.title) } == [["Flight"], ["Lunch", "Dinner"], ["Pack"]])
    }

    @Test func aMoveNamingAnItemOfAnotherDayIsRefusedAndChangesNothing() async throws {
        let fixture = try TripsDatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let trip = try await database.createTrip(title: "Lisbon")
        let pack = try await database.addItem(to: trip, [.title: "Pack"], at: .last)
        let lunch = try await database.addItem(to: trip, [.title: "Lunch", .start: Lisbon.noon], at: .last)

        let before = try await database.trip(trip)
        await #expect(throws: OrderKeyError.self) { try await database.moveItem(pack, to: .after(lunch.description)) }
        #expect(try await database.trip(trip) == before)
    }
}
