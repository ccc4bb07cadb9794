/// A trip as the list shows it.
public struct TripSummary: Sendable, Hashable {
    public var id: TripID
    public var title: String
    public var startDate: LocalDate?
    public var endDate: LocalDate?
    /// `owner`, `editor` or `viewer`.
    public var role: String
    /// Live items.
    public var itemCount: Int
    /// Field changes (of the trip and its items) waiting to be sent.
    public var pendingCount: Int
    /// Conflicts waiting for the person.
    public var conflictCount: Int

    public init(
        id: TripID, title: String, startDate: LocalDate?, endDate: LocalDate?, role: String, itemCount: Int,
        pendingCount: Int, conflictCount: Int
    ) {
        self.id = id
        self.title = title
        self.startDate = startDate
        self.endDate = endDate
        self.role = role
        self.itemCount = itemCount
        self.pendingCount = pendingCount
        self.conflictCount = conflictCount
    }
}
