import Foundation
import QuireTrips
import Testing

@Suite struct ZoneResolutionTests {
    @Test func lisbonAtTenToNewYorkAtOneIsEightHoursNotThree() throws {
        let departure = time("2027-06-10T10:00 Europe/Lisbon")
        let arrival = time("2027-06-10T13:00 America/New_York")
        #expect(ItineraryTime.duration(from: departure, to: arrival) == .seconds(8 * 3_600))
        #expect(departure.instant == utc("2027-06-10T09:00"))
        #expect(arrival.instant == utc("2027-06-10T17:00"))
    }

    @Test func aLocalTimeInTheSpringForwardGapMovesForwardByTheGap() throws {
        let inGap = time("2027-03-14T02:30 America/New_York")
        #expect(inGap.resolve() == .inGap(instant: utc("2027-03-14T07:30"), gap: 3_600))
        // 02:30 never happens that day; it is 03:30 EDT, one hour after 01:30 EST.
        #expect(inGap.displayed(.item).local == LocalDateTime("2027-03-14T03:30"))
        let before = time("2027-03-14T01:30 America/New_York")
        #expect(ItineraryTime.duration(from: before, to: inGap) == .seconds(3_600))
    }

    @Test func aLocalTimeInTheFallBackOverlapTakesTheEarlierOffsetUnlessAskedForTheLater() throws {
        let twice = time("2027-11-07T01:30 America/New_York")
        let earlier = utc("2027-11-07T05:30")  // 01:30 EDT
        let later = utc("2027-11-07T06:30")  // 01:30 EST
        #expect(twice.resolve() == .inOverlap(instant: earlier, earlier: earlier, later: later))
        #expect(twice.resolve(overlap: .later).instant == later)
        #expect(twice.instant == earlier)
    }

    @Test func lisbonFallsBackToo() {
        let twice = time("2027-10-31T01:30 Europe/Lisbon")
        #expect(twice.instant == utc("2027-10-31T00:30"))
        #expect(twice.resolve(overlap: .later).instant == utc("2027-10-31T01:30"))
    }

    @Test func tokyoKeepsOneOffsetAllYear() {
        #expect(time("2027-06-10T23:30 Asia/Tokyo").resolve() == .exact(utc("2027-06-10T14:30")))
        #expect(time("2027-03-14T02:30 Asia/Tokyo").resolve() == .exact(utc("2027-03-13T17:30")))
    }

    /// Samoa moved across the date line: 30 December 2011 never happened in Apia.
    @Test func aZoneThatChangedItsRulesSkippedAWholeDay() {
        let skipped = time("2011-12-30T10:00 Pacific/Apia")
        // Read with the offset before the gap (UTC-10), which lands on 31 December at 10:00 (UTC+14).
        #expect(skipped.resolve() == .inGap(instant: utc("2011-12-30T20:00"), gap: 86_400))
        #expect(skipped.displayed(.item).local == LocalDateTime("2011-12-31T10:00"))
        #expect(time("2011-12-29T10:00 Pacific/Apia").instant == utc("2011-12-29T20:00"))
    }

    @Test(arguments: ["Mars/Olympus", "europe/lisbon", "Europe/Lisbonn", ""])
    func anUnknownZoneShowsTheStoredLocalTimeWithItsIDAndNeverGMT(_ zoneID: String) throws {
        let stored = try #require(LocalDateTime("2027-06-10T10:00"))
        let unknown = ItineraryTime(local: stored, zoneID: zoneID)
        #expect(unknown.resolve() == .unknownZone(zoneID))
        #expect(unknown.instant == nil)
        for display in [TimeDisplay.item, .viewer("America/New_York")] {
            let shown = unknown.displayed(display)
            #expect(shown.local == stored && shown.zoneID == zoneID)
        }
        #expect(ItineraryTime.duration(from: unknown, to: time("2027-06-10T13:00 America/New_York")) == nil)
    }

    @Test func theViewerSwitchConvertsTheInstantToTheViewersZone() {
        let lunch = time("2027-06-10T10:00 Europe/Lisbon")
        #expect(lunch.displayed(.item).description == "2027-06-10T10:00 Europe/Lisbon")
        #expect(lunch.displayed(.viewer("America/New_York")).description == "2027-06-10T05:00 America/New_York")
        #expect(lunch.displayed(.viewer("Asia/Tokyo")).description == "2027-06-10T18:00 Asia/Tokyo")
        // A viewer zone this device does not know shows the item's own time, not a guess.
        #expect(lunch.displayed(.viewer("Nowhere/Special")).description == "2027-06-10T10:00 Europe/Lisbon")
    }

    @Test func anInstantReadsBackAsTheWallClockOfAnyZone() throws {
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        #expect(LocalDateTime(instant: utc("2027-11-07T05:30"), in: zone) == LocalDateTime("2027-11-07T01:30"))
        #expect(LocalDateTime(instant: utc("2027-11-07T06:30"), in: zone) == LocalDateTime("2027-11-07T01:30"))
    }

    /// The calendar arithmetic under every conversion agrees with Foundation's calendar.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func wallClockArithmeticAgreesWithFoundation(seed: UInt64) throws {
        var random = Xorshift(seed: seed)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for _ in 0..<500 {
            let seconds = Int.random(in: -5_000_000_000...5_000_000_000, using: &random) / 60 * 60
            let instant = Date(timeIntervalSince1970: TimeInterval(seconds))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
            let expected = try #require(
                LocalDate(year: parts.year!, month: parts.month!, day: parts.day!).flatMap {
                    LocalDateTime(date: $0, hour: parts.hour!, minute: parts.minute!)
                })
            #expect(LocalDateTime(instant: instant, in: calendar.timeZone) == expected)
            #expect(ZoneResolution.resolve(expected, in: "UTC") == .exact(instant))
        }
    }
}
