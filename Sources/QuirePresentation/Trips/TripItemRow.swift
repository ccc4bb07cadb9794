import QuireTrips

/// One itinerary item as the trip screen shows it.
public struct TripItemRow: Equatable, Sendable, Identifiable {
    public let id: ItemID
    public let title: String
    /// `meal`, `flight`, …; nil when unset (a kind this version does not know shows as it is).
    public let kind: String?
    /// "12:30 Europe/Lisbon", "12:30–13:30 Europe/Lisbon", "10:00 Europe/Lisbon → 13:00
    /// America/New_York", with the date when it is not the day's; nil for no start.
    public let time: String?
    /// The zone the start is shown in ("Europe/Lisbon"); nil for no start.
    public let zone: String?
    /// Something about the time worth saying: a time in a gap, an overlap, an unknown zone, or
    /// the length of a trip across zones.
    public let timeNote: String?
    public let location: String?
    public let notes: String?
    /// "not synced", "conflict", "refused"; empty when everything here is on the server.
    public let badges: [String]
    /// Choices waiting on this item's fields.
    public let banners: [TripConflictBanner]
    /// Why the server refused a change of this item, when it did.
    public let refusedReason: String?

    public init(
        id: ItemID, title: String, kind: String?, time: String?, zone: String?, timeNote: String?,
        location: String?, notes: String?, badges: [String], banners: [TripConflictBanner], refusedReason: String?
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.time = time
        self.zone = zone
        self.timeNote = timeNote
        self.location = location
        self.notes = notes
        self.badges = badges
        self.banners = banners
        self.refusedReason = refusedReason
    }
}

/// A day of the trip (or its unscheduled items) and its rows, in order.
public struct TripDaySection: Equatable, Sendable {
    /// "2027-06-10", or "Unscheduled".
    public let title: String
    /// nil for the unscheduled items.
    public let date: LocalDate?
    public let rows: [TripItemRow]

    public init(title: String, date: LocalDate?, rows: [TripItemRow]) {
        self.title = title
        self.date = date
        self.rows = rows
    }
}
