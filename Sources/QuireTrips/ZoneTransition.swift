import Foundation

/// One change of a zone's offset, as the VTIMEZONE of an export writes it.
struct ZoneTransition: Sendable, Hashable {
    /// When the change happens.
    var instant: Date
    /// The offset in force before it, seconds east of UTC.
    var offsetFrom: Int
    /// The offset from then on.
    var offsetTo: Int
    /// Whether the new offset is daylight saving time.
    var isDaylight: Bool

    /// The wall clock at which the change happens, read in the offset before it (the DTSTART
    /// of a VTIMEZONE subcomponent, RFC 5545 §3.6.5).
    var localStart: LocalDateTime? {
        LocalDateTime(secondsAsUTC: Int(instant.timeIntervalSince1970) + offsetFrom)
    }

    /// The changes of `zone`'s offset or daylight flag in `range`, from Foundation's zone data.
    static func transitions(of zone: TimeZone, in range: Range<Date>) -> [ZoneTransition] {
        var result: [ZoneTransition] = []
        var cursor = range.lowerBound
        // A bound on the loop in case the zone data reported the same transition forever.
        for _ in 0..<10_000 {
            guard let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < range.upperBound,
                next > cursor
            else { break }
            let from = zone.secondsFromGMT(for: next.addingTimeInterval(-1))
            let to = zone.secondsFromGMT(for: next)
            result.append(
                ZoneTransition(
                    instant: next, offsetFrom: from, offsetTo: to, isDaylight: zone.isDaylightSavingTime(for: next)))
            cursor = next
        }
        return result
    }
}
