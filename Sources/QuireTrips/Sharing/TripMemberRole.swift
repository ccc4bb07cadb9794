import Foundation

/// What a member of a shared trip may do: owners invite, change roles and remove; editors change
/// the trip; viewers read it.
public enum TripMemberRole: String, Sendable, CaseIterable, Hashable {
    case owner
    case editor
    case viewer
}
