import Foundation
import QuireWire

/// `GET` and `POST /v1/trips/{id}/keys` (issue 15): a member catches up with the trip's key
/// chain; an owner rotates the key, removing members in the same transaction.
extension NotesServer {
    func tripKeysRoute(_ request: HTTPRequest, method: String, trip: String, account: AccountID) async throws
        -> HTTPResponse
    {
        guard let keys = storage as? any TripKeyStorage else { throw APIError.tripsUnavailable }
        guard method == "POST" else {
            guard let found = try await keys.tripKeys(trip, account: account) else { throw APIError.tripNotFound }
            return .json(200, found)
        }
        let body = try RequestValidation.rotateTripKey(request.body)
        switch try await keys.rotateTripKey(body, trip: trip, account: account, now: now()) {
        case .rotated(let epoch, let changed):
            for account in changed { await liveUpdates.accountChanged(account, feed: .trips) }
            return .json(200, TripKeyRotatedDTO(epoch: epoch))
        case .notMember: throw APIError.tripNotFound
        case .forbidden: throw APIError.notAnOwner
        case .keyRotated(let current): throw APIError.tripKeyRotated(current: current)
        case .membersChanged: throw APIError.membersChanged
        case .noSuchMember: throw APIError.noSuchMember
        }
    }
}
