import Foundation
import QuireTrips
import Testing

@Suite struct ICalendarWriterTests {
    private let stamp = utc("2027-01-02T03:04")

    private func export(_ items: [CalendarItem]) -> String {
        ICalendarWriter().calendar(title: "Lisbon 2027", items: items, stamp: stamp)
    }

    /// The content lines with folding undone, split on CRLF.
    private func unfolded(_ ics: String) -> [String] {
        ics.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test func anEventCarriesItsStoredLocalTimeAndZoneID() {
        let lines = unfolded(
            export([
                CalendarItem(
                    id: "f1", title: "Flight TP1", location: "LIS", start: time("2027-06-10T10:00 Europe/Lisbon"),
                    end: time("2027-06-10T13:00 America/New_York"))
            ]))
        #expect(lines.contains("DTSTART;TZID=Europe/Lisbon:20270610T100000"))
        #expect(lines.contains("DTEND;TZID=America/New_York:20270610T130000"))
        #expect(lines.contains("UID:f1@quire"))
        #expect(lines.contains("DTSTAMP:20270102T030400Z"))
        #expect(lines.filter { $0 == "BEGIN:VTIMEZONE" }.count == 2)
        #expect(lines.contains("TZID:Europe/Lisbon") && lines.contains("TZID:America/New_York"))
    }

    @Test func theVTimezoneListsTheZonesTransitionsOfTheTripsYears() throws {
        let lines = unfolded(
            export([CalendarItem(id: "x", title: "x", start: time("2027-06-10T10:00 America/New_York"))]))
        let start = try #require(lines.firstIndex(of: "BEGIN:VTIMEZONE"))
        let end = try #require(lines.firstIndex(of: "END:VTIMEZONE"))
        #expect(
            Array(lines[start...end]) == [
                "BEGIN:VTIMEZONE", "TZID:America/New_York",
                "BEGIN:STANDARD", "DTSTART:20270101T000000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0500", "TZNAME:-05",
                "END:STANDARD",
                "BEGIN:DAYLIGHT", "DTSTART:20270314T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:-04",
                "END:DAYLIGHT",
                "BEGIN:STANDARD", "DTSTART:20271107T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:-05",
                "END:STANDARD",
                "END:VTIMEZONE",
            ])
    }

    @Test func anItemWithNoEndLastsTheDefaultDurationAndUntimedItemsAreLeftOut() {
        let lines = unfolded(
            export([
                CalendarItem(id: "a", title: "Lunch", start: time("2027-06-10T12:00 Europe/Lisbon")),
                CalendarItem(id: "b", title: "Someday", start: nil),
                CalendarItem(
                    id: "c", title: "Backwards", start: time("2027-06-10T12:00 Europe/Lisbon"),
                    end: time("2027-06-10T11:00 Europe/Lisbon")),
            ]))
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 2)
        #expect(lines.filter { $0 == "DURATION:PT1H" }.count == 2)
        #expect(!lines.contains { $0.hasPrefix("DTEND") })
    }

    @Test func anUnknownZoneIsWrittenAsFloatingTimeThatKeepsTheID() {
        let lines = unfolded(
            export([CalendarItem(id: "m", title: "Base", start: time("2027-06-10T10:00 Mars/Olympus"))]))
        #expect(lines.contains("DTSTART;X-QUIRE-TZID=Mars/Olympus:20270610T100000"))
        #expect(!lines.contains("BEGIN:VTIMEZONE"))
    }

    @Test func textIsEscapedAndControlCharactersDropped() {
        let lines = unfolded(
            export([
                CalendarItem(
                    id: "t", title: "Dinner; wine, cheese", location: "Rua\\Augusta",
                    notes: "Line one\r\nLine two\nLine three\u{7}", start: time("2027-06-10T20:00 Europe/Lisbon"))
            ]))
        #expect(lines.contains("SUMMARY:Dinner\\; wine\\, cheese"))
        #expect(lines.contains("LOCATION:Rua\\\\Augusta"))
        #expect(lines.contains("DESCRIPTION:Line one\\nLine two\\nLine three"))
    }

    @Test func linesEndInCRLFAndFoldAt75OctetsNeverInsideACharacter() {
        let notes = String(repeating: "Pastéis de nata — ", count: 20)
        let ics = export([
            CalendarItem(id: "n", title: "Café", notes: notes, start: time("2027-06-10T08:00 Europe/Lisbon"))
        ])
        let bytes = Array(ics.utf8)
        #expect(ics.hasSuffix("END:VCALENDAR\r\n"))
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            #expect(index > 0 && bytes[index - 1] == UInt8(ascii: "\r"), "a bare LF")
            let line = Array(bytes[lineStart..<max(lineStart, index - 1)])
            #expect(line.count <= 75, "a line of \(line.count) octets")
            // Each physical line is valid UTF-8 by itself: no fold split a character.
            #expect(String(validating: line, as: UTF8.self) != nil)
            lineStart = index + 1
        }
        #expect(unfolded(ics).contains { $0.hasPrefix("DESCRIPTION:") && $0.utf8.count > 300 })
        #expect(unfolded(ics).contains("DESCRIPTION:" + notes))
    }

    @Test func theSameTripWritesTheSameBytes() {
        let items = [CalendarItem(id: "a", title: "Lunch", start: time("2027-06-10T12:00 Europe/Lisbon"))]
        #expect(export(items) == export(items))
    }
}
