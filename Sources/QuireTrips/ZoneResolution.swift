import Foundation

/// What a stored local time and zone id mean as an instant, with this device's zone rules.
///
/// The rules follow java.time's `ZonedDateTime` (seed 002 §6) and RFC 5545 §3.3.5, so a
/// calendar that reads the export lands on the same instant:
/// - a local time in a gap (clocks went forward) moves forward by the gap's length;
/// - a local time in an overlap (clocks went back) takes the earlier offset, unless the later
///   one is asked for;
/// - an unknown zone id (a new id on an old device, or a typo from another client) has no
///   instant: the screen shows the stored local time with the id, never a guess in GMT.
public enum ZoneResolution: Sendable, Hashable {
    /// The local time happens once.
    case exact(Date)
    /// The local time never happens; `instant` is the local time moved forward by the gap,
    /// `gap` seconds long (for New York's spring forward, 02:30 is 03:30 EDT and the gap 3,600).
    case inGap(instant: Date, gap: Int)
    /// The local time happens twice; `instant` is the one asked for (by default the earlier).
    case inOverlap(instant: Date, earlier: Date, later: Date)
    /// This device's zone database does not know the id.
    case unknownZone(String)

    /// Which instant an overlap resolves to.
    public enum OverlapChoice: Sendable, Hashable {
        case earlier
        case later
    }

    /// The instant, or nil for an unknown zone.
    public var instant: Date? {
        switch self {
        case .exact(let instant), .inGap(let instant, _), .inOverlap(let instant, _, _): instant
        case .unknownZone: nil
        }
    }

    /// Resolves `local` in the zone named `zoneID`.
    public static func resolve(
        _ local: LocalDateTime, in zoneID: String, overlap: OverlapChoice = .earlier
    ) -> ZoneResolution {
        guard let zone = TimeZone(identifier: zoneID) else { return .unknownZone(zoneID) }
        return resolve(local, in: zone, overlap: overlap)
    }

    /// Resolves `local` in `zone`.
    ///
    /// It reads the zone's offsets a day either side of the local time: zone offsets stay
    /// within ±14 hours and a gap is at most a day (Samoa skipped 30 December 2011), so one
    /// transition near the local time is seen from both sides.
    public static func resolve(
        _ local: LocalDateTime, in zone: TimeZone, overlap: OverlapChoice = .earlier
    ) -> ZoneResolution {
        let wall = local.secondsAsUTC
        func offset(at seconds: Int) -> Int {
            zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
        }
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        let candidates = Set([before, after, offset(at: wall), offset(at: wall - offset(at: wall))])
        let instants = candidates.map { wall - $0 }.filter { wall - offset(at: $0) == $0 }.sorted()
        func date(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
        if let earliest = instants.first, let latest = instants.last {
            if earliest == latest { return .exact(date(earliest)) }
            let chosen = overlap == .earlier ? earliest : latest
            return .inOverlap(instant: date(chosen), earlier: date(earliest), later: date(latest))
        }
        // No offset fits: a gap. Read the time with the offset before it, which lands after it.
        let instant = wall - before
        return .inGap(instant: date(instant), gap: offset(at: instant) - before)
    }
}
