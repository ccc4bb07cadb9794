/// The fields of a trip and of an itinerary item, by their names on the wire.
///
/// Each is one value with its own server revision. Start (local date-time and zone) is one field,
/// so a merge never pairs one side's time with the other's zone; the same for end.
public enum TripField: String, Sendable, CaseIterable, Codable {
    // The trip's own fields.
    case title
    case startDate
    case endDate
    // An item's fields (an item also has `title` and `notes`).
    case kind
    case notes
    case location
    case start
    case end
    case order
    /// Both: a tombstone. The one value the server reads (`true` or `false`).
    case deleted

    public static let tripFields: [TripField] = [.title, .startDate, .endDate, .notes, .deleted]
    public static let itemFields: [TripField] = [
        .title, .kind, .notes, .location, .start, .end, .order, .deleted,
    ]
}
