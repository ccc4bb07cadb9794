import Foundation
import QuireTrips

/// One member of a shared trip on the members sheet, with what this account may do to them.
public struct TripMemberRow: Identifiable, Equatable, Sendable {
    /// The username.
    public let id: String
    /// "ana", or "ana (you)".
    public let name: String
    /// "Owner", "Editor" or "Viewer".
    public let role: String
    /// "Key ABCD-EFGH-JKMN-PQRS", or "No key yet".
    public let key: String
    /// Said when their key is not the one this device first saw.
    public let warning: String?
    /// The roles an owner may give them (never to themselves); empty for everyone else.
    public let roleChoices: [TripMemberRole]
    /// An owner may remove anyone but themselves.
    public let canRemove: Bool
    /// What to ask before removing them.
    public let removeConfirmation: String

    init(_ member: TripMember, you: String, yourRole: TripMemberRole?, tripTitle: String) {
        id = member.username
        let isYou = member.username == you
        name = isYou ? "\(member.username) (you)" : member.username
        role = member.role.label
        key = member.keyLine
        warning = member.keyWarning(before: "sharing more with them")
        let owns = yourRole == .owner && !isYou
        roleChoices = owns ? TripMemberRole.allCases.filter { $0 != member.role } : []
        canRemove = owns
        removeConfirmation = "Remove \(member.username) from “\(tripTitle)”? The trip gets a new key they don't have."
    }
}
