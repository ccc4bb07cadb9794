import QuireTrips
import Testing

@Suite struct LocalDateTimeTests {
    @Test func readsBothSpellingsAndWritesTheISOOne() throws {
        let spaced = try #require(LocalDateTime("2027-06-10 10:00"))
        let iso = try #require(LocalDateTime("2027-06-10T10:00"))
        #expect(spaced == iso)
        #expect(iso.description == "2027-06-10T10:00")
    }

    @Test(arguments: ["2027-02-29 10:00", "2027-13-01 10:00", "2027-06-10 24:00", "2027-6-10 10:00", ""])
    func refusesWhatIsNotADateAndTime(_ text: String) {
        #expect(LocalDateTime(text) == nil)
    }

    @Test func anItineraryTimeIsOneFieldOfLocalTimeAndZone() throws {
        let time = try #require(ItineraryTime(fieldValue: "2027-06-10T10:00 Europe/Lisbon"))
        #expect(time.zoneID == "Europe/Lisbon")
        #expect(time.fieldValue == "2027-06-10T10:00 Europe/Lisbon")
        #expect(ItineraryTime(fieldValue: "2027-06-10T10:00") == nil)
    }
}
