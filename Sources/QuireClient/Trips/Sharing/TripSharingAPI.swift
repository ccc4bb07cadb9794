import Foundation
import QuireTrips
import QuireWire

/// The sharing routes (issue 15) as the device calls them. Refusals throw ``NotesAPIError``
/// with the server's code and message.
public protocol TripSharingAPI: Sendable {
    /// The account's own key pair, or nil before one was published.
    func sharingKey() async throws -> SharingKeyDTO?
    func publishSharingKey(_ key: SharingKeyDTO) async throws
    /// Another account's public key; 404 (`.refused`) when there is none.
    func publicKey(of username: String) async throws -> PublicSharingKeyDTO
    func invite(_ request: TripInviteRequestDTO, to trip: TripID) async throws -> TripInviteDTO
    func invites() async throws -> [TripInviteDTO]
    func accept(_ invite: String, wrappedKey: String) async throws -> TripEntryDTO
    func decline(_ invite: String) async throws
    func members(of trip: TripID) async throws -> [TripMemberDTO]
    func setRole(_ role: String, of username: String, in trip: TripID) async throws
    /// Removes `username` from the trip (this account's own name: leaves it).
    func remove(_ username: String, from trip: TripID) async throws
}
