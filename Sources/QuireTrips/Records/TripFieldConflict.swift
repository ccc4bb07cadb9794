/// A field where this device's change met another's ("Alex changed this to 12:30. Keep mine?"),
/// an item this device edited while another device deleted it ("This item was deleted.
/// Restore it?"), or a whole trip deleted so ("This trip was deleted. Restore it?"). It stays
/// until the person chooses (``TripsDatabase/resolveConflict(trip:item:field:keep:)``,
/// ``TripsDatabase/restoreItem(_:)``, ``TripsDatabase/restoreTrip(_:)``).
public struct TripFieldConflict: Sendable, Hashable {
    public var trip: TripID
    /// nil for a field of the trip itself.
    public var item: ItemID?
    public var field: TripField
    /// This device's value, which the server did not take.
    public var mine: String?
    /// The server's value, and its revision.
    public var theirs: String?
    public var theirRevision: Int
    /// For an edit that met the item's delete (`field` is `.deleted`): the fields this device had
    /// edited, with their values and what each started from, which restoring brings back. nil
    /// for an ordinary conflict.
    public var edits: [TripField: TripEditedValue]?
    /// For the same conflict: the photos this device attached or removed that met the delete,
    /// by their field (`photo.<id>`), which restoring brings back too. Empty otherwise.
    public var photoEdits: [String: TripEditedValue]
    /// For the trip itself deleted on another device while this one changed it (`item` nil,
    /// `field` `.deleted`): how many of this device's changes of the trip the delete stopped,
    /// which restoring the trip sends. 0 otherwise.
    public var changesOfDeletedTrip: Int

    public init(
        trip: TripID, item: ItemID?, field: TripField, mine: String?, theirs: String?, theirRevision: Int,
        edits: [TripField: TripEditedValue]? = nil, photoEdits: [String: TripEditedValue] = [:],
        changesOfDeletedTrip: Int = 0
    ) {
        self.trip = trip
        self.item = item
        self.field = field
        self.mine = mine
        self.theirs = theirs
        self.theirRevision = theirRevision
        self.edits = edits
        self.photoEdits = photoEdits
        self.changesOfDeletedTrip = changesOfDeletedTrip
    }

    /// The values of ``edits``: what restoring the item brings back.
    public var editedValues: [TripField: String?]? { edits?.mapValues(\.value) }

    /// The item was deleted on another device while this one edited it: the delete won.
    public var isDeletedWhileEdited: Bool { edits != nil }

    /// The trip itself was deleted on another device while this one changed it ("This trip was
    /// deleted. Restore it?"): an owner restores it with the changes, or lets them go.
    public var isTripDeletedWhileChanged: Bool { item == nil && field == .deleted && changesOfDeletedTrip > 0 }
}
