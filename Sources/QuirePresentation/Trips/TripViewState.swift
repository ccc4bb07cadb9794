import QuireTrips

/// Everything the trip screen shows, as one value: the trip's days and their items in order,
/// pending badges, the choices waiting for the person, and why the screen is empty.
public struct TripViewState: Equatable, Sendable {
    public let title: String
    /// "2027-06-09 to 2027-06-12"; nil when the trip has no dates.
    public let dates: String?
    public let notes: String?
    public let days: [TripDaySection]
    /// Items deleted on another device while this one edited them: "This item was deleted.
    /// Restore it?".
    public let deletedWhileEdited: [TripItemRow]
    /// Choices waiting on the trip's own fields.
    public let tripBanners: [TripConflictBanner]
    /// "2 changes not synced"; nil when everything is on the server.
    public let pendingBadge: String?
    /// Conflicts waiting, the deleted items' included.
    public let conflictCount: Int
    /// What to show instead of days; nil when there are items.
    public let empty: TripEmptyState?
    public let zoneMode: TripZoneMode
    /// The zone times are shown in when `zoneMode` is `.viewer`.
    public let viewerZone: String
    /// Reading the trip failed, for people; the last state stays shown. Cleared by the next read.
    public let readProblem: String?
    /// The last choice that could not be saved, for people.
    public let actionFailure: String?

    public init(
        title: String = "", dates: String? = nil, notes: String? = nil, days: [TripDaySection] = [],
        deletedWhileEdited: [TripItemRow] = [], tripBanners: [TripConflictBanner] = [], pendingBadge: String? = nil,
        conflictCount: Int = 0, empty: TripEmptyState? = .loading, zoneMode: TripZoneMode = .item,
        viewerZone: String = "UTC", readProblem: String? = nil, actionFailure: String? = nil
    ) {
        self.title = title
        self.dates = dates
        self.notes = notes
        self.days = days
        self.deletedWhileEdited = deletedWhileEdited
        self.tripBanners = tripBanners
        self.pendingBadge = pendingBadge
        self.conflictCount = conflictCount
        self.empty = empty
        self.zoneMode = zoneMode
        self.viewerZone = viewerZone
        self.readProblem = readProblem
        self.actionFailure = actionFailure
    }

    /// Every banner on the screen, the trip's first, then each day's items', then the deleted ones.
    public var banners: [TripConflictBanner] {
        tripBanners + days.flatMap { $0.rows.flatMap(\.banners) } + deletedWhileEdited.flatMap(\.banners)
    }
}
