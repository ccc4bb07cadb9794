import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// A trip's key routes (issue 15): its key chain and who a rotation covers, and rotating it.
public protocol TripKeysAPI: Sendable {
    /// `GET /v1/trips/{id}/keys`.
    func tripKeys(of trip: TripID) async throws -> TripKeysDTO
    /// `POST /v1/trips/{id}/keys`: the trip's new epoch.
    func rotateKey(_ request: RotateTripKeyRequestDTO, of trip: TripID) async throws -> TripKeyRotatedDTO
}

/// What the trips engine needs of sharing to follow a trip's key rotations: opening a key sealed
/// to this account's public key, the trip's key chain, and rotating a trip an owner must rotate.
public protocol TripKeySource: Sendable {
    /// This account's username: its entry in a trip's log is `member.<username>`.
    var username: String { get }
    /// The key of `epoch` a rotation sealed for this account (a feed entry's `keyForm: sealed`).
    func openSealedKey(_ sealed: String, trip: TripID, epoch: Int) async throws -> SymmetricKey256
    /// The trip's key chain and members.
    func keys(of trip: TripID) async throws -> TripKeysDTO
    /// Rotates the trip's key, removing `members` in the same request; returns the new epoch.
    @discardableResult
    func rotateKey(of trip: TripID, removing members: [String], trustingNewKeys: Bool) async throws -> Int
    /// Leaves `trip` again: a server restored from before this account left it lists it again.
    func leaveAgain(_ trip: TripID) async throws
}
