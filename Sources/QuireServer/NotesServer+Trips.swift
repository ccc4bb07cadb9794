import Foundation
import QuireCrypto
import QuireWire

/// The trips routes of API v1 (seed 002): create, ops, changes, snapshot, and the account's
/// trips feed. Same bearer auth, JSON errors and bad-input rules as the note routes; a trip the
/// caller is not a member of is answered as if it did not exist (404).
extension NotesServer {
    /// Answers the trips paths, or returns nil for any other path.
    func tripsRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        let path = request.path
        guard path == WireRoutes.trips || path.hasPrefix(WireRoutes.tripsPrefix) else { return nil }
        guard let trips else { throw APIError.tripsUnavailable }
        if path == WireRoutes.trips {
            try allow(request, ["GET"])
            return try await tripsFeed(request, trips, session: try await authenticate(request))
        }
        let parts = path.dropFirst(WireRoutes.tripsPrefix.count).split(
            separator: "/", omittingEmptySubsequences: false)
        switch (parts.count, parts.last) {
        case (1, _):
            try allow(request, ["PUT", "GET"])
        case (2, "ops"):
            try allow(request, ["POST"])
        case (2, "changes"):
            try allow(request, ["GET"])
        default:
            throw APIError.notFound(
                "There is no \(path); trips live at /v1/trips/{uuid}, with /ops and /changes.")
        }
        guard request.body.count <= WireRoutes.maxBodyBytes else { throw APIError.payloadTooLarge }
        let session = try await authenticate(request)
        let trip = try RequestValidation.tripID(String(parts[0]))
        return try await refusingRemovedMembers(trip, session.account) {
            switch (parts.count, request.method) {
            case (1, "PUT"):
                try await createTrip(request, trip, trips, session: session)
            case (1, _):
                try await snapshot(trip, trips, session: session)
            case (2, "POST"):
                try await applyOps(request, trip, trips, session: session)
            default:
                try await changes(request, trip, trips, session: session)
            }
        }
    }

    /// `body`'s answer, except that a trip `account` was removed from (or left) is refused with
    /// 403 `removed_from_trip` instead of 404: the account knows the trip exists, and its device
    /// must learn to stop syncing it and delete its copy.
    func refusingRemovedMembers(
        _ trip: String, _ account: AccountID, _ body: () async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        do {
            return try await body()
        } catch let error as APIError where error == .tripNotFound {
            guard let sharing = storage as? any TripSharingStorage,
                try await sharing.wasRemoved(from: trip, account: account)
            else { throw error }
            throw APIError.removedFromTrip
        }
    }

    // MARK: - Writes

    /// `PUT /v1/trips/{id}`: 201 with the new entry, 200 with the stored one when the caller
    /// already has the trip, 409 `trip_exists` when another account does.
    private func createTrip(
        _ request: HTTPRequest, _ trip: String, _ trips: any TripStorage,
        session: AuthenticatedSession
    ) async throws -> HTTPResponse {
        let body = try RequestValidation.createTrip(request.body)
        switch try await trips.createTrip(
            trip, account: session.account, wrappedKey: body.wrappedKey, quota: configuration.tripQuota, now: now())
        {
        case .created(let entry):
            await liveUpdates.accountChanged(session.account, feed: .trips)
            return .json(201, entry)
        case .alreadyMember(let entry):
            return .json(200, entry)
        case .takenByAnother:
            throw APIError.tripExists
        case .quotaExceeded(let limit):
            throw APIError.tripQuotaExceeded(limit)
        }
    }

    /// `POST /v1/trips/{id}/ops`: one result per op. The answer is stored with the op id in the
    /// same transaction and replayed byte for byte; the fingerprint is that of the request as
    /// decoded, so a resend that spells the same ops differently is the same request.
    private func applyOps(
        _ request: HTTPRequest, _ trip: String, _ trips: any TripStorage,
        session: AuthenticatedSession
    ) async throws -> HTTPResponse {
        let ops = try RequestValidation.tripOps(request.body)
        let fingerprint = SHA256Digest.hex(WireJSON.encode(ops))
        let seal = try await cursorSeal()
        // The ops' bases are revisions of the history the device last pulled and wrote in: a
        // server restored to before it must not read them as its own (they may name other writes).
        let positions = try RequestValidation.tripPositions(request, trip: trip, account: session.account, seal: seal)
        let checked = [positions.cursor].compactMap { $0 } + positions.known
        if !checked.isEmpty {
            switch try await trips.tripHistoryHolds(trip, account: session.account, positions: checked) {
            case nil: throw APIError.tripNotFound
            case false?: throw APIError.invalidTripCursor
            case true?: break
            }
        }
        let result = try await trips.applyTripOps(
            ops, trip: trip, account: session.account, fingerprint: fingerprint, quota: configuration.tripQuota,
            now: now()
        ) { response, written in
            var response = response
            response.position = written.map {
                TripChangeCursor(position: $0).text(trip: trip, account: session.account, seal: seal)
            }
            return WireJSON.encode(response)
        }
        switch result {
        case .applied(let body, let changed):
            for account in changed { await liveUpdates.accountChanged(account, feed: .trips) }
            return .json(200, body: body)
        case .replayed(let body):
            var response = HTTPResponse.json(200, body: body)
            response.headers["Idempotent-Replayed"] = "true"
            return response
        case .opIdReused:
            throw APIError.opIDReused
        case .notMember:
            throw APIError.tripNotFound
        case .readOnly:
            throw APIError.tripReadOnly
        case .keyRotated(let current):
            throw APIError.tripKeyRotated(current: current)
        case .quotaExceeded(let limit):
            throw APIError.tripQuotaExceeded(limit)
        }
    }

    // MARK: - Reads

    /// `GET /v1/trips/{id}/changes?cursor=&limit=`.
    private func changes(
        _ request: HTTPRequest, _ trip: String, _ trips: any TripStorage,
        session: AuthenticatedSession
    ) async throws -> HTTPResponse {
        let seal = try await cursorSeal()
        let query = try RequestValidation.tripChangesQuery(request, trip: trip, account: session.account, seal: seal)
        switch try await trips.tripChanges(
            trip, account: session.account, after: query.cursor, known: query.known, limit: query.limit)
        {
        case .page(let fields, let hasMore, let next):
            return .json(
                200,
                TripChangesPageDTO(
                    changes: fields,
                    nextCursor: TripChangeCursor(position: next).text(trip: trip, account: session.account, seal: seal),
                    hasMore: hasMore))
        case .notMember:
            throw APIError.tripNotFound
        case .cursorAhead, .cursorFromAnotherHistory:
            throw APIError.invalidTripCursor
        case .cursorExpired:
            throw APIError.tripCursorExpired
        }
    }

    /// `GET /v1/trips/{id}`: every stored field and the cursor that continues after them.
    private func snapshot(_ trip: String, _ trips: any TripStorage, session: AuthenticatedSession)
        async throws -> HTTPResponse
    {
        guard let snapshot = try await trips.tripSnapshot(trip, account: session.account) else {
            throw APIError.tripNotFound
        }
        let cursor = TripChangeCursor(position: snapshot.position)
        return .json(
            200,
            TripSnapshotDTO(
                trip: snapshot.entry, fields: snapshot.fields,
                cursor: cursor.text(trip: trip, account: session.account, seal: try await cursorSeal())))
    }

    /// `GET /v1/trips?since=&limit=&wait=`: the account's trips in feed order. `wait` holds an
    /// empty page open until one of the account's trips changes, like the notes feed; a
    /// cancelled caller gets the page it has.
    private func tripsFeed(
        _ request: HTTPRequest, _ trips: any TripStorage, session: AuthenticatedSession
    ) async throws -> HTTPResponse {
        let account = session.account
        let query = try RequestValidation.tripsFeedQuery(request, seal: try await cursorSeal(), account: account)
        let (page, refused) = try await longPoll(
            .trips, account: account, wait: query.wait, isEmpty: { $0.trips.isEmpty }
        ) {
            try await tripsFeedPage(trips, account: account, query.since, query.limit)
        }
        return refused ? .longPollRefused(page, wait: query.wait) : .json(200, page)
    }

    private func tripsFeedPage(
        _ trips: any TripStorage, account: AccountID, _ since: FeedPosition?, _ limit: Int
    ) async throws -> TripsFeedPageDTO {
        switch try await trips.tripsFeed(account: account, since: since, limit: limit) {
        case .page(let entries, let hasMore, let next):
            TripsFeedPageDTO(
                trips: entries,
                nextCursor: ChangeCursor(position: next).text(seal: try await cursorSeal(), scope: .tripsFeed(account)),
                hasMore: hasMore)
        case .cursorAhead, .cursorFromAnotherHistory:
            throw APIError.invalidCursor
        }
    }
}
