/// What a member may do with a trip. The server enforces it on every trip route.
public enum TripRole: String, Sendable, CaseIterable {
    /// Can edit and (in sharing) invite, change roles, remove members and delete the trip.
    case owner
    /// Edits the trip and its items.
    case editor
    /// Reads only: every ops request is refused with 403.
    case viewer

    /// Whether ops from this role may change the trip.
    public var canEdit: Bool { self != .viewer }
}
