import Foundation
import QuireTrips

/// The field flags of `trip add` and `trip edit`, checked and turned into field values.
///
/// A start or end is the local time of the place and the place's IANA zone, never the device's
/// zone: `--at` needs `--zone` unless the item already has one. An empty value clears a field. A
/// malformed date or time is a usage error; a zone id this device does not know is kept, with a
/// warning (the zone database may be older than the place).
struct TripItemOptions {
    /// The options the two commands accept (without dashes).
    static let names: Set<String> = [
        "title", "kind", "at", "zone", "end", "end-zone", "location", "notes", "after", "before",
    ]

    /// The fields to write; a nil value clears the field.
    var changes: [TripField: String?] = [:]
    /// Lines to print on stderr: zones this device does not know.
    var warnings: [String] = []

    /// - Parameter current: the item being edited; nil for a new one.
    init(_ arguments: Arguments, current: TripItemRecord?) throws {
        let options = arguments.options
        if let title = options["title"] {
            guard !title.allSatisfy(\.isWhitespace) else {
                throw CLIError.usage("an item needs a title; --title cannot be empty or only spaces")
            }
            changes[.title] = title
        }
        if let kind = options["kind"] {
            guard kind.isEmpty || ItemKind(rawValue: kind) != nil else {
                let kinds = ItemKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError.usage("--kind takes \(kinds), not '\(kind)'")
            }
            changes[.kind] = kind.isEmpty ? nil : kind
        }
        for field in [TripField.location, .notes] {
            if let value = options[field.rawValue] { changes[field] = value.isEmpty ? nil : value }
        }
        let start = try time(
            options["at"], zone: options["zone"], flag: "at", zoneFlag: "zone", current: current?.start,
            defaultZone: nil)
        // `updateValue`, not a subscript: assigning nil through the subscript would drop the key,
        // and with it the clearing `--at ''` asks for.
        if let start { changes.updateValue(start.map(\.fieldValue), forKey: .start) }
        let startZone = (start ?? current?.start)?.zoneID
        let end = try time(
            options["end"], zone: options["end-zone"], flag: "end", zoneFlag: "end-zone", current: current?.end,
            defaultZone: startZone)
        if let end { changes.updateValue(end.map(\.fieldValue), forKey: .end) }
        // An end before the start, compared as instants (each time in its own zone), is a typo.
        if let startTime = start ?? current?.start, let endTime = end ?? current?.end,
            let from = startTime.instant, let to = endTime.instant, to < from
        {
            throw CLIError.usage(
                "the item would end (\(endTime.fieldValue)) before it starts (\(startTime.fieldValue)); "
                    + "give --end after --at")
        }
    }

    /// The new value of a start or end: nil when neither flag is given; `.some(nil)` to clear it.
    private mutating func time(
        _ text: String?, zone zoneText: String?, flag: String, zoneFlag: String, current: ItineraryTime?,
        defaultZone: String?
    ) throws -> ItineraryTime?? {
        if text == nil, zoneText == nil { return nil }
        if text == "" { return .some(nil) }
        let local: LocalDateTime
        if let text {
            guard let parsed = LocalDateTime(text) else {
                throw CLIError.usage("'\(text)' is not a date and time; write --\(flag) as 'YYYY-MM-DD HH:MM'")
            }
            local = parsed
        } else if let current {
            local = current.local
        } else {
            throw CLIError.usage("--\(zoneFlag) needs --\(flag) 'YYYY-MM-DD HH:MM': the item has no such time yet")
        }
        guard let zone = zoneText ?? current?.zoneID ?? defaultZone else {
            throw CLIError.usage(
                "--\(flag) needs --\(zoneFlag) ZONE, the IANA zone of the place (e.g. Europe/Lisbon); "
                    + "the device's own zone is never assumed")
        }
        try checkZone(zone, flag: zoneFlag)
        return .some(ItineraryTime(local: local, zoneID: zone))
    }

    private mutating func checkZone(_ zone: String, flag: String) throws {
        guard !zone.isEmpty, !zone.contains(where: \.isWhitespace) else {
            throw CLIError.usage("'\(zone)' is not a zone id; give --\(flag) as an IANA id such as Europe/Lisbon")
        }
        guard TimeZone(identifier: zone) == nil else { return }
        warnings.append(
            "quire: warning: this device does not know the zone '\(zone)'; the time is kept as typed and shown "
                + "with the id (check the spelling; an older zone database may not know a newer zone)")
    }

    /// `--from` / `--to`: nil when not given; a usage error when not a real date.
    static func date(_ text: String?, flag: String) throws -> LocalDate? {
        guard let text else { return nil }
        guard let date = LocalDate(text) else {
            throw CLIError.usage("'\(text)' is not a date; write --\(flag) as YYYY-MM-DD")
        }
        return date
    }
}
