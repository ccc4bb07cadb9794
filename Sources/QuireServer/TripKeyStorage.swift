import Foundation
import QuireWire

/// Where the server keeps a trip's key rotations (issue 15): its current key epoch, the chain of
/// earlier keys each sealed with the next, and each member's copy of the newest key. The server
/// cannot open any of them. Each method is one transaction.
public protocol TripKeyStorage: Sendable {
    /// The trip's key epoch and chain, its members with their public keys, and (for an owner)
    /// its pending invitations; nil when `account` is not a member.
    func tripKeys(_ trip: String, account: AccountID) async throws -> TripKeysDTO?

    /// An owner rotates the trip's key (removing `request.remove` first), in one transaction:
    /// nothing changes unless every check passes.
    func rotateTripKey(_ request: RotateTripKeyRequestDTO, trip: String, account: AccountID, now: Date)
        async throws -> TripRotationResult
}

/// The result of ``TripKeyStorage/rotateTripKey(_:trip:account:now:)``.
public enum TripRotationResult: Sendable, Equatable {
    /// The trip's key is now epoch `epoch`; `changed` lists the accounts whose trips feed moved
    /// (every member, and those removed).
    case rotated(epoch: Int, changed: [AccountID])
    case notMember
    case forbidden
    /// `request.epoch` is not the current epoch plus one.
    case keyRotated(current: Int)
    /// The members or invitations covered are not exactly those the trip has.
    case membersChanged
    /// A username in `remove` is not a member, or is the caller (leave with `DELETE`).
    case noSuchMember
}
