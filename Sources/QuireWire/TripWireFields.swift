/// The field names a trip op may carry, named once for client and server.
///
/// The server refuses (400) an op whose field is not in the list for its target: ``tripFields``
/// when the op's `item` is nil, ``itemFields`` otherwise. Both include ``WireRoutes/deletedField``,
/// the one value the server reads.
public enum TripWireFields {
    /// The trip's own fields: title, its local start and end dates, notes, and its tombstone.
    public static let tripFields: Set<String> = [
        "title", "startDate", "endDate", "notes", WireRoutes.deletedField,
    ]

    /// An itinerary item's fields. `start` and `end` each hold a local date-time and its zone as
    /// one value; `order` is the item's order key.
    public static let itemFields: Set<String> = [
        "title", "kind", "notes", "location", "start", "end", "order", WireRoutes.deletedField,
    ]

    /// The fields an op on `item` (nil: the trip itself) may name.
    public static func fields(forItem item: String?) -> Set<String> {
        item == nil ? tripFields : itemFields
    }
}
