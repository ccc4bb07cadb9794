/// Which side of a conflict the person keeps.
public enum TripConflictChoice: String, Sendable, CaseIterable {
    /// This device's value: sent again on top of the server's revision (for a deleted item:
    /// restore it with the edited values).
    case mine
    /// The server's value (for a deleted item: let the delete stand).
    case theirs
}
