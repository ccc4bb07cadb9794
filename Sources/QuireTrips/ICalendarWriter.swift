import Foundation

/// Writes a trip as an iCalendar file (RFC 5545): one VEVENT per timed item, and a VTIMEZONE
/// for each zone the events use. Pure: the same input gives the same bytes.
///
/// - Each event's times are the stored local values with their zone id
///   (`DTSTART;TZID=Europe/Lisbon:20270610T100000`), never a converted instant: a calendar
///   reads a time in a gap or an overlap by the same rule as `ZoneResolution` (RFC 5545 §3.3.5:
///   the offset before a gap, the first of an overlap).
/// - The UID is `ITEM-ID@quire`; DTSTAMP is the `stamp` given.
/// - No end, or an end not after the start: `DURATION` of `defaultDuration` (one hour).
/// - A zone this device does not know cannot have a VTIMEZONE: the time is written floating
///   (no TZID, read as the reader's local time) with the id kept in an `X-QUIRE-TZID`
///   parameter, so the stored value is not lost and nothing is invented.
/// - VTIMEZONE: the offset in force on 1 January of the first year the trip's events touch,
///   then every transition Foundation reports up to the end of the last year, each as an
///   explicit STANDARD or DAYLIGHT subcomponent (no RRULE).
/// - Lines end in CRLF and are folded at 75 octets; text is escaped.
public struct ICalendarWriter: Sendable {
    /// The length of an event whose item has no end (or an end not after its start).
    public var defaultDuration: Duration = .seconds(3_600)
    /// The PRODID of the calendar.
    public var productID = "-//Quire//Trips//EN"

    public init() {}

    /// The VCALENDAR for a trip titled `title` with `items` (live items; a tombstone given here
    /// would be exported). Items without a start are left out.
    public func calendar(title: String, items: [CalendarItem], stamp: Date) -> String {
        let timed = items.filter { $0.start != nil }
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(ICalendarText.text(productID))", "CALSCALE:GREGORIAN",
            "X-WR-CALNAME:\(ICalendarText.text(title))",
        ]
        lines += timezones(for: timed)
        for item in timed { lines += event(item, stamp: stamp) }
        lines.append("END:VCALENDAR")
        return lines.map(ICalendarText.folded).joined()
    }

    // MARK: - Events

    private func event(_ item: CalendarItem, stamp: Date) -> [String] {
        guard let start = item.start else { return [] }
        var lines = [
            "BEGIN:VEVENT", "UID:\(ICalendarText.text(item.id + "@quire"))", "DTSTAMP:\(ICalendarText.utc(stamp))",
            dateTime("DTSTART", start),
        ]
        if let end = item.end, endsAfter(end, start) {
            lines.append(dateTime("DTEND", end))
        } else {
            lines.append("DURATION:\(Self.duration(defaultDuration))")
        }
        if !item.title.isEmpty { lines.append("SUMMARY:\(ICalendarText.text(item.title))") }
        if !item.location.isEmpty { lines.append("LOCATION:\(ICalendarText.text(item.location))") }
        if !item.notes.isEmpty { lines.append("DESCRIPTION:\(ICalendarText.text(item.notes))") }
        lines.append("END:VEVENT")
        return lines
    }

    private func dateTime(_ name: String, _ time: ItineraryTime) -> String {
        let value = ICalendarText.dateTime(time.local)
        if TimeZone(identifier: time.zoneID) == nil {
            return "\(name);X-QUIRE-TZID=\(ICalendarText.parameter(time.zoneID)):\(value)"
        }
        return "\(name);TZID=\(ICalendarText.parameter(time.zoneID)):\(value)"
    }

    /// Whether `end` is after `start`: by instant when both resolve; by wall clock when both
    /// are in the same unknown zone; otherwise unknowable, so no.
    private func endsAfter(_ end: ItineraryTime, _ start: ItineraryTime) -> Bool {
        if let to = end.instant, let from = start.instant { return to > from }
        return end.instant == nil && start.instant == nil && end.zoneID == start.zoneID && end.local > start.local
    }

    static func duration(_ duration: Duration) -> String {
        let seconds = max(0, duration.components.seconds)
        var text = "PT"
        if seconds / 3_600 > 0 { text += "\(seconds / 3_600)H" }
        if seconds % 3_600 / 60 > 0 { text += "\(seconds % 3_600 / 60)M" }
        if seconds % 60 > 0 || seconds == 0 { text += "\(seconds % 60)S" }
        return text
    }
}
