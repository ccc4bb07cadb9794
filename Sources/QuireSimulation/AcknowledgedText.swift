/// A note's text the server stored (a put it applied): from then on it is in the note, or in
/// the server's history or trash, until its tombstone is purged. The history ledger reads them.
struct AcknowledgedText: Hashable, Sendable {
    var noteID: String
    /// The payload as the server stored it (the simulation's notes travel in the clear).
    var payload: String
}
