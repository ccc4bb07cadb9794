import QuireTrips

/// A choice waiting for the person on one field of an item (or of the trip): "Another device
/// changed this to 12:30. Keep mine?", or, for an item deleted while this device edited it,
/// "This item was deleted. Restore it?".
public struct TripConflictBanner: Equatable, Sendable {
    /// The item (nil: a field of the trip itself).
    public let item: ItemID?
    public let field: TripField
    /// The question, for people.
    public let message: String
    /// This device's value as the banner shows it ("12:30"); nil for a restore.
    public let mine: String?
    /// The item was deleted elsewhere; the choice restores it (mine) or lets the delete stand.
    public let isRestore: Bool

    public init(item: ItemID?, field: TripField, message: String, mine: String?, isRestore: Bool) {
        self.item = item
        self.field = field
        self.message = message
        self.mine = mine
        self.isRestore = isRestore
    }
}

extension TripConflictBanner {
    /// The button that keeps this device's value ("Keep mine"), or restores the deleted item.
    public var keepMineTitle: String {
        if isRestore { return "Restore it" }
        return mine.map { "Keep mine (\($0))" } ?? "Keep mine"
    }

    /// The button that keeps the other device's value, or lets the delete stand.
    public var keepTheirsTitle: String { isRestore ? "Leave it deleted" : "Keep theirs" }
}
