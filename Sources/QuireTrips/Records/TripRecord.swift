/// A trip as its screen shows it: its own fields and its live items, in order.
public struct TripRecord: Sendable, Hashable {
    public var id: TripID
    /// `owner`, `editor` or `viewer`.
    public var role: String
    /// The trip's own fields (title, dates, notes, deleted).
    public var fields: [TripField: TripFieldState]
    /// The items that are not deleted, ordered by (order key, id).
    public var items: [TripItemRecord]
    /// Deleted items with a conflict waiting (an edit of this device's met the delete).
    public var deletedItemsWithConflicts: [TripItemRecord]

    public init(
        id: TripID, role: String, fields: [TripField: TripFieldState], items: [TripItemRecord],
        deletedItemsWithConflicts: [TripItemRecord] = []
    ) {
        self.id = id
        self.role = role
        self.fields = fields
        self.items = items
        self.deletedItemsWithConflicts = deletedItemsWithConflicts
    }

    public func value(_ field: TripField) -> String? { fields[field]?.value ?? nil }

    public var title: String { value(.title) ?? "" }
    public var startDate: LocalDate? { value(.startDate).flatMap { LocalDate($0) } }
    public var endDate: LocalDate? { value(.endDate).flatMap { LocalDate($0) } }
    public var notes: String? { value(.notes) }
    public var isDeleted: Bool { value(.deleted) == "true" }

    /// Fields (of the trip and its items) with a change waiting to be sent.
    public var pendingCount: Int {
        (fields.values + (items + deletedItemsWithConflicts).flatMap(\.fields.values)).filter(\.isPending).count
    }
    /// Conflicts waiting for the person, deleted items' included.
    public var conflicts: [TripFieldConflict] {
        (fields.values + (items + deletedItemsWithConflicts).flatMap(\.fields.values)).compactMap(\.conflict)
    }
}
