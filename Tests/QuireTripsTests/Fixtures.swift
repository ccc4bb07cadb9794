import Foundation
import QuireTrips

/// `2027-06-10T10:00 Europe/Lisbon` and the like, for tests.
func time(_ text: String) -> ItineraryTime {
    guard let time = ItineraryTime(fieldValue: text) else { fatalError("not an itinerary time: \(text)") }
    return time
}

/// The instant of a UTC wall clock, `2027-06-10T09:00`.
func utc(_ text: String) -> Date {
    guard let local = LocalDateTime(text), case .exact(let instant) = ZoneResolution.resolve(local, in: "UTC") else {
        fatalError("not a UTC time: \(text)")
    }
    return instant
}
