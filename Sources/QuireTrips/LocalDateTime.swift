/// A wall-clock date and time with no zone, to the minute: what the person typed.
/// Written as `YYYY-MM-DDTHH:MM`; also read as `YYYY-MM-DD HH:MM`.
public struct LocalDateTime: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var date: LocalDate
    public var hour: Int
    public var minute: Int

    public init?(date: LocalDate, hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
    }

    /// Parses `YYYY-MM-DDTHH:MM` or `YYYY-MM-DD HH:MM`.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "T" || $0 == " " })
        guard parts.count == 2, let date = LocalDate(parts[0]) else { return nil }
        let clock = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 2, clock[0].count == 2, clock[1].count == 2,
            let h = Int(clock[0]), let m = Int(clock[1])
        else { return nil }
        self.init(date: date, hour: h, minute: m)
    }

    public var description: String {
        "\(date)T\(LocalDate.pad(hour, 2)):\(LocalDate.pad(minute, 2))"
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.hour, a.minute) < (b.date, b.hour, b.minute)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = LocalDateTime(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a local time: \(text)"))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
