import Foundation
import QuireTrips

/// One invitation waiting: who sent it and their key, warned when it changed.
public struct TripInvitationRow: Identifiable, Equatable, Sendable {
    public let id: String
    /// "From ana".
    public let from: String
    /// "Key ABCD-EFGH-JKMN-PQRS", or "No key yet".
    public let key: String
    /// Said when the inviter's key is not the one this device first saw.
    public let warning: String?

    init(_ invitation: TripInvitation) {
        id = invitation.id
        from = "From \(invitation.from.username)"
        key = invitation.from.keyLine
        warning = invitation.from.keyWarning(before: "joining")
    }
}
