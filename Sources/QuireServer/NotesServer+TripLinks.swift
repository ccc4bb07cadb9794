import Foundation
import QuireCrypto
import QuireWire

/// The invite-link routes (issue 15): an owner makes and revokes links; anyone signed in who
/// holds a whole link (its id and the token from its secret) reads its sealed key and joins.
extension NotesServer {
    func linkRoute(_ route: SharingPath, _ request: HTTPRequest, account: AccountID) async throws -> HTTPResponse {
        guard let links = storage as? any TripLinkStorage else { throw APIError.tripsUnavailable }
        switch route {
        case .links(let raw):
            let trip = try RequestValidation.tripID(raw)
            let body = try RequestValidation.createTripLink(request.body)
            return try await refusingRemovedMembers(trip, account) {
                switch try await links.createLink(
                    body, trip: trip, account: account, linkID: UUID().uuidString.lowercased(), now: now())
                {
                case .created(let link): return .json(201, link)
                case .notMember: throw APIError.tripNotFound
                case .forbidden: throw APIError.notAnOwner
                case .keyRotated(let current): throw APIError.tripKeyRotated(current: current)
                }
            }
        case .link(let raw, let rawLink):
            let trip = try RequestValidation.tripID(raw)
            let link = try RequestValidation.linkID(rawLink)
            return try await refusingRemovedMembers(trip, account) {
                switch try await links.revokeLink(link, trip: trip, account: account) {
                case .revoked: return .empty(204)
                case .notMember: throw APIError.tripNotFound
                case .forbidden: throw APIError.notAnOwner
                case .noSuchLink: throw APIError.linkUnusable
                }
            }
        case .useLink(let rawLink, let joining):
            let link = try RequestValidation.linkID(rawLink)
            let body = try RequestValidation.useTripLink(request.body, joining: joining)
            let tokenHash = SHA256Digest.hex(body.token)
            if joining {
                guard
                    let join = try await links.joinByLink(
                        link, tokenHash: tokenHash, account: account, wrappedKey: body.wrappedKey ?? "", now: now())
                else { throw APIError.linkUnusable }
                for changed in join.changed { await liveUpdates.accountChanged(changed, feed: .trips) }
                return .json(200, join.entry)
            }
            guard let opened = try await links.openLink(link, tokenHash: tokenHash, now: now()) else {
                throw APIError.linkUnusable
            }
            return .json(200, opened)
        default:
            throw APIError.notFound("There is no \(request.path); see /v1/openapi.json for the API.")
        }
    }
}
