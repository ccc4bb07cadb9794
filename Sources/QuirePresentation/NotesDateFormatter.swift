import Foundation

/// Formats the dates the notes screen shows, in one locale and time zone, so tests can pin both.
///
/// Today's dates show as a time ("10:42"), older ones as a date ("3 Mar 2025"). `now` decides
/// what "today" is.
public struct NotesDateFormatter: Sendable {
    private let time: Date.FormatStyle
    private let day: Date.FormatStyle
    private let dayAndTime: Date.FormatStyle
    private let calendar: Calendar
    private let now: @Sendable () -> Date

    public init(
        locale: Locale = .autoupdatingCurrent, timeZone: TimeZone = .autoupdatingCurrent,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        time = Date.FormatStyle(
            date: .omitted, time: .shortened, locale: locale, timeZone: timeZone)
        day = Date.FormatStyle(
            date: .abbreviated, time: .omitted, locale: locale, timeZone: timeZone)
        dayAndTime = Date.FormatStyle(
            date: .abbreviated, time: .shortened, locale: locale, timeZone: timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        self.calendar = calendar
        self.now = now
    }

    /// A row's date: "10:42" today, "3 Mar 2025" before.
    public func rowDate(_ date: Date) -> String {
        isToday(date) ? date.formatted(time) : date.formatted(day)
    }

    /// When the last sync finished: "10:42" today, "3 Mar 2025 at 10:42" before.
    public func syncTime(_ date: Date) -> String {
        isToday(date) ? date.formatted(time) : date.formatted(dayAndTime)
    }

    /// The start of today: rows formatted on another day may need formatting again.
    func today() -> Date {
        calendar.startOfDay(for: now())
    }

    private func isToday(_ date: Date) -> Bool {
        calendar.isDate(date, inSameDayAs: now())
    }
}
