import QuireTrips
import Testing

@Suite struct ItineraryTests {
    private func item(_ id: String, _ key: String = "a0", _ start: String? = nil, deleted: Bool = false)
        -> ItineraryEntry
    {
        ItineraryEntry(id: id, orderKey: key, start: start.map(time), isDeleted: deleted)
    }

    /// 07:00 in Tokyo on 11 June is still 10 June in New York; the item is on Tokyo's day for
    /// every viewer.
    @Test func anItemIsOnTheLocalDateOfItsOwnZone() throws {
        let breakfast = item("breakfast", "a0", "2027-06-11T07:00 Asia/Tokyo")
        let late = item("late", "a0", "2027-06-10T23:30 Asia/Tokyo")
        let days = Itinerary.days(of: [breakfast, late])
        #expect(days.map(\.group) == [.day(LocalDate("2027-06-10")!), .day(LocalDate("2027-06-11")!)])
        #expect(days.map { $0.items.map(\.id) } == [["late"], ["breakfast"]])
        #expect(breakfast.start?.displayed(.viewer("America/New_York")).local.date == LocalDate("2027-06-10"))
    }

    @Test func aDayIsSortedByInstantNotByWallClock() {
        let days = Itinerary.days(of: [
            item("lisbon", "a0", "2027-06-10T10:00 Europe/Lisbon"),  // 09:00 UTC
            item("new-york", "a1", "2027-06-10T06:00 America/New_York"),  // 10:00 UTC
            item("tokyo", "a2", "2027-06-10T17:00 Asia/Tokyo"),  // 08:00 UTC
        ])
        #expect(days.first?.items.map(\.id) == ["tokyo", "lisbon", "new-york"])
    }

    @Test func equalInstantsFallBackToLocalTimeThenKeyThenID() {
        let days = Itinerary.days(of: [
            item("lisbon", "a0", "2027-06-10T10:00 Europe/Lisbon"),
            item("new-york", "a5", "2027-06-10T05:00 America/New_York"),
            item("c", "a3", "2027-06-10T12:00 Europe/Lisbon"),
            item("b", "a2", "2027-06-10T12:00 Europe/Lisbon"),
            item("a", "a2", "2027-06-10T12:00 Europe/Lisbon"),
        ])
        #expect(days.first?.items.map(\.id) == ["new-york", "lisbon", "a", "b", "c"])
    }

    @Test func anItemInAnUnknownZoneSitsWhereItsWallClockPutsIt() {
        let days = Itinerary.days(of: [
            item("tokyo", "a0", "2027-06-10T17:00 Asia/Tokyo"),
            item("lisbon", "a1", "2027-06-10T10:00 Europe/Lisbon"),
            item("mars", "a2", "2027-06-10T12:00 Mars/Olympus"),
            item("new-york", "a3", "2027-06-10T06:00 America/New_York"),
        ])
        // By instant: tokyo (17:00), lisbon (10:00), new-york (06:00). Mars has no instant, so
        // its 12:00 meets them by wall clock in that order: before Tokyo's 17:00.
        #expect(days.first?.items.map(\.id) == ["mars", "tokyo", "lisbon", "new-york"])
    }

    @Test func itemsWithoutAStartAreUnscheduledAfterTheDaysInKeyOrder() {
        let days = Itinerary.days(of: [
            item("later", "a2"), item("first", "Zz"), item("twin-b", "a1"), item("twin-a", "a1"),
            item("dinner", "a0", "2027-06-10T20:00 Europe/Lisbon"),
        ])
        #expect(days.map(\.group) == [.day(LocalDate("2027-06-10")!), .unscheduled])
        #expect(days.last?.items.map(\.id) == ["first", "twin-a", "twin-b", "later"])
        #expect(ItineraryGroup.unscheduled.description == "Unscheduled")
    }

    @Test func tombstonesAreLeftOut() {
        let days = Itinerary.days(of: [
            item("kept", "a0", "2027-06-10T10:00 Europe/Lisbon"),
            item("gone", "a1", "2027-06-10T11:00 Europe/Lisbon", deleted: true),
            item("gone-too", "a1", deleted: true),
        ])
        #expect(days.map { $0.items.map(\.id) } == [["kept"]])
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func everyDeviceOrdersTheSameItemsTheSameWay(seed: UInt64) {
        var random = Xorshift(seed: seed)
        let zones = ["Europe/Lisbon", "America/New_York", "Asia/Tokyo", "Mars/Olympus"]
        let items = (0..<60).map { index in
            let hour = Int.random(in: 0..<24, using: &random)
            let start =
                Bool.random(using: &random)
                ? "2027-06-1\(Int.random(in: 0...2, using: &random))T\(hour < 10 ? "0" : "")\(hour):00 \(zones.randomElement(using: &random)!)"
                : nil
            return item("item-\(index)", ["a0", "a1", "a2"].randomElement(using: &random)!, start)
        }
        let reference = Itinerary.days(of: items)
        for _ in 0..<5 {
            #expect(Itinerary.days(of: items.shuffled(using: &random)) == reference)
        }
        #expect(reference.flatMap(\.items).count == 60)
    }
}
