import Foundation
import QuireWire

/// The sharing routes of API v1 (issue 15): the account's key pair for sharing, other accounts'
/// public keys, invitations, and a trip's members and roles. Same bearer auth, JSON errors and
/// bad-input rules as the trips routes; a trip the caller is not a member of is answered as if
/// it did not exist (404), and a member without the role gets 403.
extension NotesServer {
    /// Answers the sharing paths, or returns nil for any other path.
    func sharingRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        guard let route = SharingPath(request.path) else { return nil }
        guard let sharing = storage as? any TripSharingStorage else { throw APIError.tripsUnavailable }
        try allow(request, route.methods)
        guard request.body.count <= WireRoutes.maxBodyBytes else { throw APIError.payloadTooLarge }
        let account = try await authenticate(request).account
        switch (route, request.method) {
        case (.ownKey, "PUT"):
            try await sharing.setSharingKey(RequestValidation.sharingKey(request.body), account: account, now: now())
            return .empty(204)
        case (.ownKey, _):
            guard let key = try await sharing.sharingKey(account: account) else { throw APIError.noSharingKeyYet }
            return .json(200, key)
        case (.publicKey(let raw), _):
            let username = try RequestValidation.username(raw)
            guard let key = try await sharing.publicSharingKey(username: username.value) else {
                throw APIError.noSharingKey
            }
            return .json(200, key)
        case (.invites, _):
            return .json(200, TripInvitesDTO(invites: try await sharing.invites(account: account)))
        case (.answer(let raw, let accepting), _):
            return try await answerInvite(request, raw, accepting: accepting, sharing, account: account)
        case (.invite(let raw), _):
            let trip = try RequestValidation.tripID(raw)
            return try await refusingRemovedMembers(trip, account) {
                try await invite(request, trip: trip, sharing, account: account)
            }
        case (.members(let raw), _):
            let trip = try RequestValidation.tripID(raw)
            return try await refusingRemovedMembers(trip, account) {
                guard let members = try await sharing.members(trip, account: account) else {
                    throw APIError.tripNotFound
                }
                return .json(200, TripMembersDTO(members: members))
            }
        case (.links, _), (.link, _), (.useLink, _):
            return try await linkRoute(route, request, account: account)
        case (.keys(let raw), let method):
            let trip = try RequestValidation.tripID(raw)
            return try await refusingRemovedMembers(trip, account) {
                try await tripKeysRoute(request, method: method, trip: trip, account: account)
            }
        case (.member(let raw, let rawUsername), let method):
            let trip = try RequestValidation.tripID(raw)
            let username = try RequestValidation.username(rawUsername).value
            return try await refusingRemovedMembers(trip, account) {
                let result =
                    method == "PUT"
                    ? try await sharing.setRole(
                        RequestValidation.tripRole(request.body), of: username, trip: trip, account: account,
                        now: now())
                    : try await sharing.removeMember(username, trip: trip, account: account, now: now())
                return try await membershipAnswer(result)
            }
        }
    }

    private func invite(
        _ request: HTTPRequest, trip: String, _ sharing: any TripSharingStorage, account: AccountID
    ) async throws -> HTTPResponse {
        let body = try RequestValidation.tripInvite(request.body)
        switch try await sharing.invite(
            body, trip: trip, account: account, inviteID: UUID().uuidString.lowercased(), now: now())
        {
        case .invited(let invite): return .json(201, invite)
        case .notMember: throw APIError.tripNotFound
        case .forbidden: throw APIError.notAnOwner
        case .noSuchAccount: throw APIError.noSharingKey
        case .alreadyMember: throw APIError.alreadyMember
        case .keyRotated(let current): throw APIError.tripKeyRotated(current: current)
        }
    }

    private func answerInvite(
        _ request: HTTPRequest, _ raw: String, accepting: Bool, _ sharing: any TripSharingStorage,
        account: AccountID
    ) async throws -> HTTPResponse {
        let id = try RequestValidation.inviteID(raw)
        guard accepting else {
            guard try await sharing.declineInvite(id, account: account) else { throw APIError.inviteNotFound }
            return .empty(204)
        }
        let body = try RequestValidation.acceptInvite(request.body)
        guard let join = try await sharing.acceptInvite(id, account: account, wrappedKey: body.wrappedKey, now: now())
        else { throw APIError.inviteNotFound }
        for changed in join.changed { await liveUpdates.accountChanged(changed, feed: .trips) }
        return .json(200, join.entry)
    }

    private func membershipAnswer(_ result: TripMembershipResult) async throws -> HTTPResponse {
        switch result {
        case .changed(let accounts):
            for changed in accounts { await liveUpdates.accountChanged(changed, feed: .trips) }
            return .empty(204)
        case .notMember: throw APIError.tripNotFound
        case .forbidden: throw APIError.notAnOwner
        case .noSuchMember: throw APIError.noSuchMember
        case .lastOwner: throw APIError.lastOwner
        }
    }
}

/// A sharing path, parsed: which route it names and the raw ids in it.
enum SharingPath: Equatable {
    case ownKey
    case publicKey(username: String)
    case invites
    case answer(invite: String, accepting: Bool)
    case invite(trip: String)
    case members(trip: String)
    case member(trip: String, username: String)
    case links(trip: String)
    case link(trip: String, link: String)
    case useLink(link: String, joining: Bool)
    case keys(trip: String)

    init?(_ path: String) {
        if path == WireRoutes.sharingKey {
            self = .ownKey
            return
        }
        if path == WireRoutes.invites {
            self = .invites
            return
        }
        // Every other sharing path has at least five parts, so four slashes: a path with fewer (a
        // note's, on every PUT, routed and labelled for metrics) is none, without splitting it.
        guard path.utf8.lazy.filter({ $0 == UInt8(ascii: "/") }).count >= 4 else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "v1", kind, id, ...]
        guard parts.count >= 5, parts[0].isEmpty, parts[1] == "v1" else { return nil }
        switch (parts[2], parts.count, parts[4]) {
        case ("accounts", 5, "sharing-key"): self = .publicKey(username: parts[3])
        case ("invites", 5, "accept"): self = .answer(invite: parts[3], accepting: true)
        case ("invites", 5, "decline"): self = .answer(invite: parts[3], accepting: false)
        case ("trips", 5, "invites"): self = .invite(trip: parts[3])
        case ("trips", 5, "members"): self = .members(trip: parts[3])
        case ("trips", 6, "members"): self = .member(trip: parts[3], username: parts[5])
        case ("trips", 5, "links"): self = .links(trip: parts[3])
        case ("trips", 5, "keys"): self = .keys(trip: parts[3])
        case ("trips", 6, "links"): self = .link(trip: parts[3], link: parts[5])
        case ("links", 5, "open"): self = .useLink(link: parts[3], joining: false)
        case ("links", 5, "join"): self = .useLink(link: parts[3], joining: true)
        default: return nil
        }
    }

    /// The route as the OpenAPI document names it, for the metrics' route label.
    var template: String {
        switch self {
        case .ownKey: WireRoutes.sharingKey
        case .publicKey: "/v1/accounts/{username}/sharing-key"
        case .invites: WireRoutes.invites
        case .answer(_, let accepting): accepting ? "/v1/invites/{invite}/accept" : "/v1/invites/{invite}/decline"
        case .invite: "/v1/trips/{id}/invites"
        case .members: "/v1/trips/{id}/members"
        case .member: "/v1/trips/{id}/members/{username}"
        case .links: "/v1/trips/{id}/links"
        case .link: "/v1/trips/{id}/links/{link}"
        case .useLink(_, let joining): joining ? "/v1/links/{link}/join" : "/v1/links/{link}/open"
        case .keys: "/v1/trips/{id}/keys"
        }
    }

    var methods: [String] {
        switch self {
        case .ownKey: ["PUT", "GET"]
        case .keys: ["GET", "POST"]
        case .publicKey, .invites, .members: ["GET"]
        case .answer, .invite, .links, .useLink: ["POST"]
        case .member: ["PUT", "DELETE"]
        case .link: ["DELETE"]
        }
    }
}
