import Foundation
import QuireWire

/// Invite links (issue 15): an owner's invitation that anyone holding the link can take, a
/// bounded number of times, until it expires or is revoked. The server keeps the trip key
/// sealed with a key only the link's secret gives, and the hash of a join token derived from
/// that secret: holding the link id alone is not enough to join.
public protocol TripLinkStorage: Sendable {
    /// An owner of `trip` makes the link `linkID`.
    func createLink(
        _ request: CreateTripLinkRequestDTO, trip: String, account: AccountID, linkID: String, now: Date
    ) async throws -> TripLinkResult

    /// The link, when `tokenHash` is its token's and it can still be used; changes nothing.
    func openLink(_ linkID: String, tokenHash: String, now: Date) async throws -> TripLinkDTO?

    /// `account` joins with the link (a member already: its entry, and no use is spent).
    func joinByLink(_ linkID: String, tokenHash: String, account: AccountID, wrappedKey: String, now: Date)
        async throws -> TripJoin?

    /// An owner revokes the link; false when the trip has no such link.
    func revokeLink(_ linkID: String, trip: String, account: AccountID) async throws -> TripLinkRevocation
}

public enum TripLinkResult: Sendable, Equatable {
    case created(TripLinkDTO)
    case notMember
    case forbidden
    /// The sealed key is not of the trip's current key epoch, `current`.
    case keyRotated(current: Int)
}

public enum TripLinkRevocation: Sendable, Equatable {
    case revoked
    case notMember
    case forbidden
    case noSuchLink
}
