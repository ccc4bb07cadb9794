import Foundation

// MARK: - Wall clock and instants

extension LocalDateTime {
    /// Seconds from 1970-01-01T00:00 to this wall-clock time, counted as if it were UTC: the
    /// arithmetic a zone's offset is added to or taken from. Pure calendar arithmetic
    /// (proleptic Gregorian), no zone database.
    var secondsAsUTC: Int {
        LocalDateTime.daysFromCivil(date.year, date.month, date.day) * 86_400 + hour * 3_600 + minute * 60
    }

    /// The wall-clock time `seconds` after 1970-01-01T00:00, floored to the minute; nil
    /// outside years 1 to 9999.
    init?(secondsAsUTC seconds: Int) {
        let days = seconds.floorDivided(by: 86_400)
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = LocalDateTime.civil(fromDays: days)
        guard let date = LocalDate(year: y, month: m, day: d) else { return nil }
        self.init(date: date, hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60)
    }

    /// The wall-clock time of `instant` in `zone` (the viewer's zone, or an item's), floored to
    /// the minute; nil outside years 1 to 9999.
    public init?(instant: Date, in zone: TimeZone) {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
        self.init(secondsAsUTC: seconds + zone.secondsFromGMT(for: instant))
    }

    // Howard Hinnant's days_from_civil and civil_from_days.
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int {
    func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
