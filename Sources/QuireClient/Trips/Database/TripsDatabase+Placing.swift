import Foundation
import QuireTrips

// MARK: - Placing: moves and inserts by position

extension TripsDatabase {
    /// Moves an item within its group (its day, or the unscheduled items) to `position`, in one
    /// transaction: nearly always one write of its `order` key between its new neighbours', or,
    /// when they leave no room, a rebalance of the group, each changed key an ordinary field
    /// change (``OrderPlacement``).
    /// - Throws: ``TripsDatabaseError`` `.unknownItem`, `.deletedItem`; `OrderKeyError.unknownAnchor`
    ///   when `position` names an item that is not in the same group.
    public func moveItem(_ item: ItemID, to position: OrderPosition) throws {
        try write {
            let trip = try requireLiveItem(item)
            try place(item, in: trip, at: position)
        }
    }

    /// Adds an item with `values` and places it at `position` within its group, in one
    /// transaction; returns its id. Throws like ``addItem(to:_:id:)`` and ``moveItem(_:to:)``.
    @discardableResult
    public func addItem(
        to trip: TripID, _ values: [TripField: String?], at position: OrderPosition, id: ItemID = ItemID()
    ) throws -> ItemID {
        try write {
            try addItem(to: trip, values.filter { $0.key != .order }, id: id)
            try place(id, in: trip, at: position)
            return id
        }
    }

    /// Queues the order writes that put `item` at `position` among its group's live items.
    private func place(_ item: ItemID, in trip: TripID, at position: OrderPosition) throws {
        guard let record = try readTrip(trip) else {
            throw TripsDatabaseError(.unknownTrip, "no trip \(trip) on this device")
        }
        let group = record.days.first { $0.items.contains { $0.id == item } }?.items ?? []
        let writes = try OrderPlacement.place(item.description, at: position, among: group.map(\.itineraryEntry))
        for write in writes {
            guard let moved = ItemID(write.itemID) else { continue }
            try queueChange(trip: trip, item: moved, field: .order, value: write.key)
        }
    }
}
