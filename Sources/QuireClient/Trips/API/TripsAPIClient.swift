import Foundation
import QuireTrips
import QuireWire

/// ``TripsAPI`` over an ``HTTPTransport``, with the token handling and the status mapping every
/// client of the device shares (``AuthorizedTransport``): a 401 refreshes the token once, 410 is
/// `.cursorExpired`, 403/404/409/413 are `.refused`, 408/429/5xx and lost answers `.transient`.
public struct TripsAPIClient: TripsAPI {
    private let http: AuthorizedTransport
    /// Added to `wait` for a long-poll's timeout, so the server answers before the client gives up.
    private let requestTimeout: TimeInterval

    public init(transport: HTTPTransport, tokens: AccessTokenProvider, requestTimeout: TimeInterval = 30) {
        self.http = AuthorizedTransport(transport: transport, tokens: tokens)
        self.requestTimeout = requestTimeout
    }

    public func tripsFeed(since cursor: Cursor?, limit: Int, wait: Int) async throws -> TripsFeedPageDTO {
        var query = ["limit=\(limit)"]
        if let cursor { query.append("since=\(AuthorizedTransport.percentEncoded(cursor.rawValue))") }
        if wait > 0 { query.append("wait=\(wait)") }
        return try await get(
            TripsFeedPageDTO.self, WireRoutes.trips + "?" + query.joined(separator: "&"),
            timeout: requestTimeout + TimeInterval(wait))
    }

    public func createTrip(_ trip: TripID, wrappedKey: String) async throws {
        let response = try await http.send(
            TransportRequest(
                method: "PUT", path: WireRoutes.trip(trip.description),
                headers: ["Content-Type": "application/json"],
                body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: wrappedKey)), timeout: requestTimeout))
        guard response.status == 200 || response.status == 201 else {
            throw AuthorizedTransport.failure(response)
        }
    }

    public func snapshot(of trip: TripID) async throws -> TripSnapshotDTO {
        try await get(TripSnapshotDTO.self, WireRoutes.trip(trip.description), timeout: requestTimeout)
    }

    public func changes(of trip: TripID, since cursor: Cursor?, known: [Cursor], limit: Int) async throws
        -> TripChangesPageDTO
    {
        let query = ["limit=\(limit)"] + Self.positions(cursor: cursor, known: known)
        return try await get(
            TripChangesPageDTO.self,
            WireRoutes.tripChanges(trip.description) + "?" + query.joined(separator: "&"),
            timeout: requestTimeout)
    }

    public func send(_ request: TripOpsRequestDTO, to trip: TripID, cursor: Cursor?, known: [Cursor]) async throws
        -> TripOpsResponseDTO
    {
        let query = Self.positions(cursor: cursor, known: known)
        let response = try await http.send(
            TransportRequest(
                method: "POST",
                path: WireRoutes.tripOps(trip.description) + (query.isEmpty ? "" : "?" + query.joined(separator: "&")),
                headers: ["Content-Type": "application/json"], body: WireJSON.encode(request),
                timeout: requestTimeout))
        guard response.status == 200 else { throw AuthorizedTransport.failure(response) }
        let answer = try AuthorizedTransport.decode(TripOpsResponseDTO.self, from: response)
        guard answer.results.count == request.ops.count else {
            throw NotesAPIError(
                kind: .invalidResponse, status: 200,
                message: "The server answered \(request.ops.count) trip ops with \(answer.results.count) results.")
        }
        return answer
    }

    /// The `cursor` and `known` query items, percent-encoded.
    private static func positions(cursor: Cursor?, known: [Cursor]) -> [String] {
        var query: [String] = []
        if let cursor { query.append("cursor=\(AuthorizedTransport.percentEncoded(cursor.rawValue))") }
        if !known.isEmpty {
            query.append(
                "known=" + known.map { AuthorizedTransport.percentEncoded($0.rawValue) }.joined(separator: ","))
        }
        return query
    }

    private func get<T: Decodable>(_ type: T.Type, _ path: String, timeout: TimeInterval) async throws -> T {
        let response = try await http.send(TransportRequest(method: "GET", path: path, timeout: timeout))
        guard response.status == 200 else { throw AuthorizedTransport.failure(response) }
        return try AuthorizedTransport.decode(type, from: response)
    }
}
