/// Where one field of a trip lives: the trip's own field (`item` nil) or an itinerary item's.
public struct TripFieldKey: Hashable, Sendable, CustomStringConvertible {
    /// The item's id, or nil for a field of the trip itself.
    public var item: String?
    public var field: String

    public init(item: String?, field: String) {
        self.item = item
        self.field = field
    }

    /// The `deleted` field of the same target (the item, or the trip).
    public var tombstone: TripFieldKey { TripFieldKey(item: item, field: WireRoutes.deletedField) }

    /// The trip's own `deleted` field.
    public static let tripTombstone = TripFieldKey(item: nil, field: WireRoutes.deletedField)

    public var description: String { "\(item ?? "trip").\(field)" }
}
