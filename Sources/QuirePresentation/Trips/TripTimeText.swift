import QuireTrips

/// How an item's start and end read on the trip screen. Pure.
///
/// In the item's zone a row reads "12:30–13:30 Europe/Lisbon"; in the viewer's zone every time is
/// converted first. A date is written only when it is not the day's. An end in another zone reads
/// "10:00 Europe/Lisbon → 13:00 America/New_York" with the length as a note, arithmetic on
/// instants (Lisbon 10:00 to New York 13:00 is 8 h).
enum TripTimeText {
    struct Text: Equatable {
        var time: String
        var zone: String
        var note: String?
    }

    static func text(
        start: ItineraryTime, end: ItineraryTime?, day: LocalDate?, mode: TripZoneMode, viewerZone: String
    ) -> Text {
        let display: TimeDisplay = mode == .item ? .item : .viewer(viewerZone)
        let shownStart = start.displayed(display)
        var time = clock(shownStart.local, on: day)
        var notes = [resolutionNote(shownStart.resolution, typed: start)].compactMap { $0 }
        if let end {
            let shownEnd = end.displayed(display)
            if shownEnd.zoneID == shownStart.zoneID {
                time += "–" + clock(shownEnd.local, on: shownStart.local.date) + " " + shownStart.zoneID
            } else {
                time += " \(shownStart.zoneID) → " + clock(shownEnd.local, on: day) + " " + shownEnd.zoneID
                if let length = ItineraryTime.duration(from: start, to: end) { notes.append(lengthText(length)) }
            }
            if let note = resolutionNote(shownEnd.resolution, typed: end) { notes.append("ends: " + note) }
        } else {
            time += " " + shownStart.zoneID
        }
        return Text(time: time, zone: shownStart.zoneID, note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }

    /// "12:30", or "2027-06-11 12:30" when not on `day`.
    static func clock(_ local: LocalDateTime, on day: LocalDate?) -> String {
        let hours = local.hour < 10 ? "0\(local.hour)" : "\(local.hour)"
        let minutes = local.minute < 10 ? "0\(local.minute)" : "\(local.minute)"
        return (local.date == day ? "" : "\(local.date) ") + "\(hours):\(minutes)"
    }

    /// A field value of `start` or `end` as a person reads it: "12:30" on `day` in `zone`, else
    /// with its date and zone; the raw text when it is not a time.
    static func value(_ fieldValue: String, day: LocalDate?, zone: String?) -> String {
        guard let time = ItineraryTime(fieldValue: fieldValue) else { return fieldValue }
        let clockText = clock(time.local, on: day)
        return time.zoneID == zone ? clockText : "\(clockText) \(time.zoneID)"
    }

    private static func resolutionNote(_ resolution: ZoneResolution, typed: ItineraryTime) -> String? {
        switch resolution {
        case .exact: return nil
        case .inGap(_, let gap):
            return "\(clock(typed.local, on: typed.local.date)) does not exist that day in \(typed.zoneID) "
                + "(clocks go forward \(gap / 60) min); it happens \(gap / 60) min later"
        case .inOverlap:
            return "\(clock(typed.local, on: typed.local.date)) happens twice that day in \(typed.zoneID); "
                + "the first one"
        case .unknownZone(let zone):
            return "this device does not know the zone \(zone): shown as typed"
        }
    }

    private static func lengthText(_ duration: Duration) -> String {
        let minutes = Int(duration.components.seconds / 60)
        let sign = minutes < 0 ? "-" : ""
        let hours = abs(minutes) / 60
        let rest = abs(minutes) % 60
        return "lasts " + sign + (rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min")
    }
}
