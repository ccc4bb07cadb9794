extension TripRecord {
    /// The live items grouped into days and ordered as the trip screen shows them
    /// (`Itinerary.days(of:)`): by the local date of each item's start in its own zone, a day by
    /// time first, then order key and id; items with no start last.
    public var days: [ItineraryDay<TripItemRecord>] {
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id.description, $0) })
        return Itinerary.days(of: items.map(\.itineraryEntry)).map { day in
            ItineraryDay(group: day.group, items: day.items.compactMap { byID[$0.id] })
        }
    }
}
