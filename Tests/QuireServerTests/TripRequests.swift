import Foundation
import QuireCrypto
import QuirePostgres
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// Values and requests for the trips tests: a test "seals" a plaintext as its base64 and hashes
/// it with SHA-256, which is all the server can tell about a value.
enum TripValue {
    static func sealed(_ plain: String) -> String { Data("sealed:\(plain)".utf8).base64EncodedString() }

    static func hash(_ plain: String) -> String { SHA256Digest.hex(Data(plain.utf8)) }

    /// An op setting `field` of `item` (nil: the trip) to `plain`, or clearing it when nil.
    static func op(
        _ item: String?, _ field: String, _ plain: String?, base: Int = 0
    ) -> TripOpDTO {
        TripOpDTO(
            item: item, field: field, value: plain.map(sealed), valueHash: plain.map(hash),
            baseRevision: base)
    }

    /// An op setting `deleted` of `item` (nil: the trip).
    static func deleted(_ item: String?, _ value: Bool, base: Int) -> TripOpDTO {
        TripOpDTO(item: item, field: "deleted", value: "\(value)", valueHash: nil, baseRevision: base)
    }

    static let wrappedKey = Data(repeating: 5, count: 60).base64EncodedString()
}

extension ServerHarness {
    /// A fresh server over `store`, Alice's token, and a trip she owns.
    static func withAlicesTrip(_ store: StoreKind = .sqlite) async throws
        -> (ServerHarness, alice: String, trip: String)
    {
        let harness = try await ServerHarness(store: store)
        let alice = try await harness.token("alice")
        return (harness, alice, try await harness.newTrip(token: alice))
    }

    /// The query items that have a value.
    private static func query(_ items: [String: String?]) -> [String: String] {
        items.compactMapValues { $0 }
    }

    private func tripRequest(
        _ method: String, _ path: String, token: String, query: [String: String] = [:],
        body: Data = Data()
    ) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: method, path: path, query: query,
                headers: ["Authorization": "Bearer \(token)"], body: body))
    }

    func putTrip(_ trip: String, token: String, wrappedKey: String = TripValue.wrappedKey) async
        -> HTTPResponse
    {
        await tripRequest(
            "PUT", WireRoutes.trip(trip), token: token,
            body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: wrappedKey)))
    }

    /// A new trip owned by `token`'s account; fails the test unless it was created.
    func newTrip(token: String) async throws -> String {
        let trip = Self.uuid()
        let response = await putTrip(trip, token: token)
        try #require(response.status == 201, "PUT trip answered \(response.status): \(response.text)")
        return trip
    }

    func opsResponse(_ trip: String, body: Data, token: String) async -> HTTPResponse {
        await tripRequest("POST", WireRoutes.tripOps(trip), token: token, body: body)
    }

    func opsResponse(
        _ trip: String, _ ops: [TripOpDTO], opID: String = ServerHarness.uuid(), cursor: String? = nil,
        known: String? = nil, token: String
    ) async -> HTTPResponse {
        await tripRequest(
            "POST", WireRoutes.tripOps(trip), token: token, query: Self.query(["cursor": cursor, "known": known]),
            body: WireJSON.encode(TripOpsRequestDTO(opId: opID, ops: ops)))
    }

    /// The results of one ops request; fails the test unless it answered 200.
    func ops(
        _ trip: String, _ ops: [TripOpDTO], opID: String = ServerHarness.uuid(), token: String
    ) async throws -> TripOpsResponseDTO {
        let response = await opsResponse(trip, ops, opID: opID, token: token)
        try #require(response.status == 200, "ops answered \(response.status): \(response.text)")
        return try response.decoded(TripOpsResponseDTO.self)
    }

    func tripChangesResponse(
        _ trip: String, cursor: String? = nil, known: String? = nil, limit: Int? = nil, token: String
    ) async -> HTTPResponse {
        await tripRequest(
            "GET", WireRoutes.tripChanges(trip), token: token,
            query: Self.query(["cursor": cursor, "known": known, "limit": limit.map(String.init)]))
    }

    func tripChanges(_ trip: String, cursor: String? = nil, limit: Int? = nil, token: String)
        async throws -> TripChangesPageDTO
    {
        let response = await tripChangesResponse(trip, cursor: cursor, limit: limit, token: token)
        try #require(response.status == 200, "changes answered \(response.status): \(response.text)")
        return try response.decoded(TripChangesPageDTO.self)
    }

    func snapshotResponse(_ trip: String, token: String) async -> HTTPResponse {
        await tripRequest("GET", WireRoutes.trip(trip), token: token)
    }

    func snapshot(_ trip: String, token: String) async throws -> TripSnapshotDTO {
        let response = await snapshotResponse(trip, token: token)
        try #require(response.status == 200, "snapshot answered \(response.status): \(response.text)")
        return try response.decoded(TripSnapshotDTO.self)
    }

    func tripsFeedResponse(
        token: String, since: String? = nil, limit: Int? = nil, wait: Int? = nil
    ) async -> HTTPResponse {
        await tripRequest(
            "GET", WireRoutes.trips, token: token,
            query: Self.query(["since": since, "limit": limit.map(String.init), "wait": wait.map(String.init)]))
    }

    func tripsFeed(token: String, since: String? = nil, limit: Int? = nil, wait: Int? = nil)
        async throws -> TripsFeedPageDTO
    {
        let response = await tripsFeedResponse(token: token, since: since, limit: limit, wait: wait)
        try #require(response.status == 200, "feed answered \(response.status): \(response.text)")
        return try response.decoded(TripsFeedPageDTO.self)
    }

    /// Makes `username` a member of `trip` with `role`, as sharing (issue 15) will: straight in
    /// the database, beside the running server (on SQLite a second connection waits for the
    /// first's lock).
    func addMember(_ trip: String, username: String, role: TripRole) async throws {
        let sql = """
            INSERT INTO trip_members (trip_id, account_id, role, wrapped_key, feed_seq, joined_at)
            SELECT $1, a.id, $2, $3, t.seq, 0 FROM accounts a, trips t
            WHERE a.username = $4 AND t.trip_id = $1
            """
        let values: [HistoryValue] = [.text(trip), .text(role.rawValue), .text(TripValue.wrappedKey), .text(username)]
        if let postgresConnectionString {
            try await onOwnThread {
                _ = try PostgresConnection(postgresConnectionString).historyRun(sql, values)
            }
        } else {
            _ = try SQLiteConnection(path: databasePath).historyRun(sql, values)
        }
    }
}
