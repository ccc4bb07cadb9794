import Foundation

// MARK: - Instants, durations and display

extension ItineraryTime {
    /// This time as an instant with this device's zone rules (see `ZoneResolution`).
    public func resolve(overlap: ZoneResolution.OverlapChoice = .earlier) -> ZoneResolution {
        ZoneResolution.resolve(local, in: zoneID, overlap: overlap)
    }

    /// The instant (the earlier one in an overlap), or nil when the zone is unknown here.
    public var instant: Date? { resolve().instant }

    /// The time from `start` to `end`: arithmetic on instants, never on wall clocks (Lisbon
    /// 10:00 to New York 13:00 on 10 June 2027 is eight hours, not three). Nil when either zone
    /// is unknown on this device.
    public static func duration(from start: ItineraryTime, to end: ItineraryTime) -> Duration? {
        guard let from = start.instant, let to = end.instant else { return nil }
        return .seconds(Int64((to.timeIntervalSince1970 - from.timeIntervalSince1970).rounded()))
    }

    /// How to show this time: in its own zone, or converted to the viewer's (the trip screen's
    /// "item | viewer" switch).
    ///
    /// In its own zone a time in a gap shows the wall clock it really happens at (02:30 on New
    /// York's spring-forward day shows 03:30), with the resolution for a note. An unknown item
    /// zone, or an unknown viewer zone, shows the stored local time with the item's zone id.
    public func displayed(_ display: TimeDisplay) -> DisplayedTime {
        let resolution = resolve()
        let unresolved = DisplayedTime(local: local, zoneID: zoneID, resolution: resolution)
        guard let instant = resolution.instant else { return unresolved }
        let target: String
        switch display {
        case .item: target = zoneID
        case .viewer(let viewerZone): target = viewerZone
        }
        guard let zone = TimeZone(identifier: target), let shown = LocalDateTime(instant: instant, in: zone) else {
            return unresolved
        }
        return DisplayedTime(local: shown, zoneID: target, resolution: resolution)
    }
}

/// Which zone a time is shown in.
public enum TimeDisplay: Sendable, Hashable {
    /// The item's own zone: "10:00 in Lisbon".
    case item
    /// The viewer's zone (an IANA id, for example the device's): "05:00 in New York".
    case viewer(String)
}

/// A time as the screen shows it.
public struct DisplayedTime: Sendable, Hashable, CustomStringConvertible {
    /// The wall clock to show.
    public var local: LocalDateTime
    /// The zone `local` is in.
    public var zoneID: String
    /// How the stored time resolved: for a badge on a gap, an overlap or an unknown zone.
    public var resolution: ZoneResolution

    public init(local: LocalDateTime, zoneID: String, resolution: ZoneResolution) {
        self.local = local
        self.zoneID = zoneID
        self.resolution = resolution
    }

    public var description: String { "\(local) \(zoneID)" }
}
