/// An itinerary item as the calendar export needs it.
public struct CalendarItem: Sendable, Hashable {
    /// The device-made item id; the event's UID is made from it, so a re-export updates the
    /// same events in a calendar that imported the last one.
    public var id: String
    public var title: String
    public var location: String
    public var notes: String
    /// `nil`: not exported (only timed items are events).
    public var start: ItineraryTime?
    /// `nil`: the event lasts `ICalendarWriter.defaultDuration`.
    public var end: ItineraryTime?

    public init(
        id: String, title: String, location: String = "", notes: String = "",
        start: ItineraryTime?, end: ItineraryTime? = nil
    ) {
        self.id = id
        self.title = title
        self.location = location
        self.notes = notes
        self.start = start
        self.end = end
    }
}
