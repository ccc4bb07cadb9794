/// The trip screen's switch: each item's time in its own zone, or every time in the viewer's.
public enum TripZoneMode: String, Sendable, Hashable, CaseIterable {
    /// "12:30 Europe/Lisbon": the wall clock of the place.
    case item
    /// Every time converted to the viewer's zone (the device's, or one the person picks).
    case viewer
}
