import QuireTrips

/// One trip in the list of trips.
public struct TripListRow: Equatable, Sendable, Identifiable {
    public let id: TripID
    /// The title, or "Untitled trip".
    public let title: String
    /// "2027-06-09 to 2027-06-12"; nil without dates.
    public let dates: String?
    /// "3 items".
    public let detail: String
    /// "2 not synced", "1 conflict"; empty when nothing waits.
    public let badges: [String]

    public init(id: TripID, title: String, dates: String?, detail: String, badges: [String]) {
        self.id = id
        self.title = title
        self.dates = dates
        self.detail = detail
        self.badges = badges
    }
}
