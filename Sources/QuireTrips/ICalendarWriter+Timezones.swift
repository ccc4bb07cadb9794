import Foundation

// MARK: - VTIMEZONE

extension ICalendarWriter {
    /// One VTIMEZONE per known zone the items use, in order of first use, covering the years the
    /// items' times span.
    func timezones(for items: [CalendarItem]) -> [String] {
        let times = items.flatMap { [$0.start, $0.end].compactMap { $0 } }
        guard let firstYear = times.map(\.local.date.year).min(), let lastYear = times.map(\.local.date.year).max()
        else { return [] }
        var seen: Set<String> = []
        var lines: [String] = []
        for time in times where seen.insert(time.zoneID).inserted {
            guard let zone = TimeZone(identifier: time.zoneID) else { continue }
            lines += timezone(time.zoneID, zone, years: firstYear...lastYear)
        }
        return lines
    }

    private func timezone(_ id: String, _ zone: TimeZone, years: ClosedRange<Int>) -> [String] {
        guard let first = LocalDate(year: years.lowerBound, month: 1, day: 1),
            let firstLocal = LocalDateTime(date: first, hour: 0, minute: 0),
            let after = LocalDate(year: min(years.upperBound + 1, 9999), month: 1, day: 1),
            let afterLocal = LocalDateTime(date: after, hour: 0, minute: 0)
        else { return [] }
        // The first local midnight of the span, and its offset, start the zone's story.
        let startOffset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(firstLocal.secondsAsUTC)))
        let startInstant = Date(timeIntervalSince1970: TimeInterval(firstLocal.secondsAsUTC - startOffset))
        let endInstant = Date(timeIntervalSince1970: TimeInterval(afterLocal.secondsAsUTC + 14 * 3_600))
        let initial = ZoneTransition(
            instant: startInstant, offsetFrom: zone.secondsFromGMT(for: startInstant),
            offsetTo: zone.secondsFromGMT(for: startInstant), isDaylight: zone.isDaylightSavingTime(for: startInstant))
        var lines = ["BEGIN:VTIMEZONE", "TZID:\(ICalendarText.text(id))"]
        let transitions = ZoneTransition.transitions(of: zone, in: startInstant..<endInstant)
        for transition in [initial] + transitions {
            guard let local = transition.localStart else { continue }
            let kind = transition.isDaylight ? "DAYLIGHT" : "STANDARD"
            lines += [
                "BEGIN:\(kind)", "DTSTART:\(ICalendarText.dateTime(local))",
                "TZOFFSETFROM:\(ICalendarText.offset(transition.offsetFrom))",
                "TZOFFSETTO:\(ICalendarText.offset(transition.offsetTo))",
                "TZNAME:\(ICalendarText.offsetName(transition.offsetTo))", "END:\(kind)",
            ]
        }
        lines.append("END:VTIMEZONE")
        return lines
    }
}
