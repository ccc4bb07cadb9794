/// A value this device typed into an item another device deleted, kept in the item's delete
/// conflict for restoring: the value, and what the field held when it was typed, so a restore
/// that meets a value typed since (by a device this one never heard from) asks "Keep mine?"
/// instead of replacing it.
public struct TripEditedValue: Sendable, Hashable {
    public var value: String?
    /// What the field held when `value` was typed; nil when that cannot be told (a restore
    /// then goes on the field's newest revision this device holds).
    public var startedFrom: StartingValue?

    /// The field's value when the edit began (nil inside: the field had none).
    public struct StartingValue: Sendable, Hashable, Codable {
        public var value: String?

        public init(_ value: String?) { self.value = value }
    }

    public init(_ value: String?, startedFrom: StartingValue?) {
        self.value = value
        self.startedFrom = startedFrom
    }
}

extension TripEditedValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case value, startedFrom
    }

    /// Reads `{"value": …, "startedFrom": {"value": …}}`, and a bare value (the form of client
    /// schema 2, which kept no starting value).
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self.init(nil, startedFrom: nil)
                return
            }
            if let value = try? single.decode(String.self) {
                self.init(value, startedFrom: nil)
                return
            }
        }
        let keyed = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try keyed.decodeIfPresent(String.self, forKey: .value),
            startedFrom: try keyed.decodeIfPresent(StartingValue.self, forKey: .startedFrom))
    }
}
