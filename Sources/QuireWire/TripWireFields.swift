import Foundation

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

    /// The fields an op on `item` (nil: the trip itself) may name, besides an item's photos
    /// (``isPhotoField(_:)``).
    public static func fields(forItem item: String?) -> Set<String> {
        item == nil ? tripFields : itemFields
    }

    /// An item's photo is the field `photo.<photo id>` (a lowercase UUID the device made): its
    /// sealed value says which upload holds the photo and the key to open it; null once removed.
    /// One field per photo, so two people adding photos to one item never meet.
    public static let photoFieldPrefix = "photo."

    /// The field name of photo `id` (a lowercase UUID).
    public static func photoField(_ id: String) -> String { photoFieldPrefix + id }

    /// The photo id of a field name `photo.<lowercase UUID>`; nil for any other name.
    public static func photoID(ofField name: String) -> String? {
        guard name.hasPrefix(photoFieldPrefix) else { return nil }
        let id = String(name.dropFirst(photoFieldPrefix.count))
        guard let uuid = UUID(uuidString: id), uuid.uuidString.lowercased() == id else { return nil }
        return id
    }
}
