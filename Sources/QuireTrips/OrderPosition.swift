/// Where a move or an insert puts an item within a day (or the unscheduled group).
public enum OrderPosition: Sendable, Hashable {
    case first
    case last
    /// Right after the item with this id.
    case after(String)
    /// Right before the item with this id.
    case before(String)
}

/// One write of an item's `order` field: a move is one of these, a rebalance several.
public struct OrderKeyWrite: Sendable, Hashable {
    public var itemID: String
    public var key: String

    public init(itemID: String, key: String) {
        self.itemID = itemID
        self.key = key
    }
}
