/// What ordering a trip into days needs to know of an item. The database's rows, the view
/// model's rows and `ItineraryEntry` conform, so `Itinerary.days(of:)` returns the caller's own
/// values in order.
public protocol ItineraryOrderable {
    /// The device-made item id: the last tie-break, the same on every device.
    var id: String { get }
    /// The item's order key (`OrderKey`). A malformed key from another device still sorts, by bytes.
    var orderKey: String { get }
    /// When the item starts; `nil` puts it in the unscheduled group.
    var start: ItineraryTime? { get }
    /// A tombstone: hidden from every list.
    var isDeleted: Bool { get }
}

/// An item as ordering sees it; the simplest `ItineraryOrderable`.
public struct ItineraryEntry: ItineraryOrderable, Sendable, Hashable {
    public var id: String
    public var orderKey: String
    public var start: ItineraryTime?
    public var end: ItineraryTime?
    public var isDeleted: Bool

    public init(
        id: String, orderKey: String, start: ItineraryTime? = nil, end: ItineraryTime? = nil,
        isDeleted: Bool = false
    ) {
        self.id = id
        self.orderKey = orderKey
        self.start = start
        self.end = end
        self.isDeleted = isDeleted
    }
}
