/// The trips, for screens: watch the list or one trip, and settle what waits for the person.
/// Backed by the device's trips database; the trip screen's view model reads through it, so it
/// needs nothing of the database or the sync.
public protocol TripsRepository: Sendable {
    /// Replays the live trips, then each different list after a commit. One stream per caller;
    /// it finishes when the caller's task is cancelled, or when a read fails.
    func tripList() -> AsyncStream<[TripSummary]>

    /// Replays one trip (nil once it is gone or deleted), then each different value. Finishes
    /// like ``tripList()``.
    func tripUpdates(_ trip: TripID) -> AsyncStream<TripRecord?>

    /// Settles a conflict by the person's choice: `.mine` sends this device's value again on top
    /// of the server's, `.theirs` keeps the server's. For an item deleted while edited, `.mine`
    /// restores it with the edits. Throws when no conflict waits on the field.
    func resolveConflict(trip: TripID, item: ItemID?, field: TripField, keep choice: TripConflictChoice)
        async throws

    /// Brings back a deleted item, with the edits this device made while another deleted it.
    func restoreItem(_ item: ItemID) async throws
}
