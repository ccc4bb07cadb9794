/// What an itinerary item is.
public enum ItemKind: String, Sendable, CaseIterable, Codable {
    case flight, stay, meal, activity, transport, other
}
