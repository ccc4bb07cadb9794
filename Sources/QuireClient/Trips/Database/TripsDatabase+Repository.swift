import QuireTrips

/// The database is the trips' repository: its streams and its conflict settling are what the
/// trip screen's view model reads and calls.
extension TripsDatabase: TripsRepository {}
