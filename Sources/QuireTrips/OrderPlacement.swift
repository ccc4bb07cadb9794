/// The order-key writes for a move or an insert within one group of a trip (a day, or the
/// unscheduled items).
///
/// Nearly always one write: the moved item's key becomes one between its new neighbours'. When
/// the neighbours leave no room (two devices inserted at one spot offline and made equal keys,
/// the keys run against the display order, a key is malformed) or the new key would be longer
/// than `rebalanceLength`, the group is rebalanced: every item gets a fresh short key in display
/// order, each written as an ordinary `order` field op (only the keys that change). A rebalance
/// is deterministic, so two devices that rebalance the same day write the same values, and the
/// server's "same value" rule applies both without a conflict.
public enum OrderPlacement {
    /// Keys longer than this are not written; the group is rebalanced instead.
    public static let rebalanceLength = 64

    /// Returns the `order` writes that put `itemID` at `position` among `items`, a group in
    /// display order (`ItineraryDay.items`). The item may be among them (a move) or not (an
    /// insert); tombstones are ignored.
    ///
    /// After the writes, the item sorts by (key, id) between the neighbours it was placed
    /// between; a rebalance also makes the whole group's key order its display order.
    /// Throws `OrderKeyError.unknownAnchor` when `after`/`before` names an item not among
    /// `items`, or the item itself.
    public static func place(
        _ itemID: String, at position: OrderPosition, among items: [some ItineraryOrderable],
        rebalanceLength: Int = rebalanceLength
    ) throws -> [OrderKeyWrite] {
        let others = items.filter { !$0.isDeleted && $0.id != itemID }.map { (id: $0.id, key: $0.orderKey) }
        let index = try insertionIndex(for: position, among: others.map(\.id))
        let lower = index > 0 ? others[index - 1].key : nil
        let upper = index < others.count ? others[index].key : nil
        if let key = try? OrderKey.between(lower, upper), key.utf8.count <= rebalanceLength {
            return [OrderKeyWrite(itemID: itemID, key: key)]
        }
        var order = others
        order.insert((id: itemID, key: ""), at: index)
        let fresh = try OrderKey.keys(count: order.count, between: nil, and: nil)
        return zip(order, fresh).compactMap { item, key in
            item.key == key && item.id != itemID ? nil : OrderKeyWrite(itemID: item.id, key: key)
        }
    }

    private static func insertionIndex(for position: OrderPosition, among ids: [String]) throws -> Int {
        switch position {
        case .first: return 0
        case .last: return ids.count
        case .after(let anchor):
            guard let found = ids.firstIndex(of: anchor) else { throw OrderKeyError.unknownAnchor(anchor) }
            return found + 1
        case .before(let anchor):
            guard let found = ids.firstIndex(of: anchor) else { throw OrderKeyError.unknownAnchor(anchor) }
            return found
        }
    }
}
