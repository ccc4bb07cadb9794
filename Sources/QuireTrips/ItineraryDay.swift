/// A group of a trip's items as the trip screen shows them: one local date, or the items with
/// no start yet.
public enum ItineraryGroup: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The items whose start falls on this date in the item's own zone.
    case day(LocalDate)
    /// The items with no start, shown after every day, in order-key order.
    case unscheduled

    public var description: String {
        switch self {
        case .day(let date): date.description
        case .unscheduled: "Unscheduled"
        }
    }

    public static func < (a: ItineraryGroup, b: ItineraryGroup) -> Bool {
        switch (a, b) {
        case (.day(let x), .day(let y)): x < y
        case (.day, .unscheduled): true
        case (.unscheduled, _): false
        }
    }
}

/// One group and its items in display order.
public struct ItineraryDay<Item> {
    public var group: ItineraryGroup
    public var items: [Item]

    public init(group: ItineraryGroup, items: [Item]) {
        self.group = group
        self.items = items
    }
}

extension ItineraryDay: Sendable where Item: Sendable {}
extension ItineraryDay: Equatable where Item: Equatable {}
