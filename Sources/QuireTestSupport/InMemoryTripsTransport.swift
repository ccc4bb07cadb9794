import Foundation
import QuireClient
import QuireTrips
import QuireWire

/// The trip routes of API v1 over HTTP, answered by an ``InMemoryTripsServer``: what the live
/// ``TripsAPIClient`` talks to in tests, so its paths, JSON and status mapping are exercised too.
/// The bearer token is the account's name. Any other route is 404 `not_found`, as the real server
/// answers a route it does not have.
public struct InMemoryTripsTransport: HTTPTransport {
    public let server: InMemoryTripsServer

    public init(server: InMemoryTripsServer) {
        self.server = server
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        try Task.checkCancellation()
        let parsed = InProcessTransport.serverRequest(from: request)
        guard let auth = parsed.header("Authorization"), auth.hasPrefix("Bearer ") else {
            return Self.error(
                NotesAPIError(kind: .unauthorized, status: 401, code: "unauthorized", message: "No token."))
        }
        let account = String(auth.dropFirst("Bearer ".count))
        do {
            return try await route(parsed.method, parsed.path, parsed.query, request.body ?? Data(), account: account)
        } catch let error as NotesAPIError {
            return Self.error(error)
        } catch is DecodingError {
            return Self.error(NotesAPIError(kind: .refused, status: 400, code: "invalid_json", message: "Bad JSON."))
        }
    }

    private func route(_ method: String, _ path: String, _ query: [String: String], _ body: Data, account: String)
        async throws -> TransportResponse
    {
        let limit = query["limit"].flatMap(Int.init) ?? WireRoutes.defaultPageLimit
        if path == WireRoutes.trips, method == "GET" {
            let wait = query["wait"].flatMap(Int.init) ?? 0
            return Self.ok(
                try await server.tripsFeed(account: account, since: query["since"], limit: limit, wait: wait))
        }
        guard path.hasPrefix(WireRoutes.tripsPrefix) else { return Self.notFound(path) }
        let rest = path.dropFirst(WireRoutes.tripsPrefix.count).split(separator: "/").map(String.init)
        guard let id = rest.first.flatMap(TripID.init)?.description else { return Self.notFound(path) }
        switch (method, rest.count > 1 ? rest[1] : nil) {
        case ("PUT", nil):
            let dto = try WireJSON.decoder().decode(CreateTripRequestDTO.self, from: body)
            let status = try await server.createTrip(account: account, id: id, wrappedKey: dto.wrappedKey)
            return TransportResponse(status: status, body: Data("{}".utf8))
        case ("GET", nil):
            return Self.ok(try await server.snapshot(account: account, id: id))
        case ("GET", "changes"):
            return Self.ok(try await server.changes(account: account, id: id, cursor: query["cursor"], limit: limit))
        case ("POST", "ops"):
            let dto = try WireJSON.decoder().decode(TripOpsRequestDTO.self, from: body)
            return Self.ok(try await server.ops(account: account, id: id, request: dto))
        default:
            return Self.notFound(path)
        }
    }

    private static func ok<T: Encodable>(_ value: T) -> TransportResponse {
        TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: WireJSON.encode(value))
    }

    private static func notFound(_ path: String) -> TransportResponse {
        error(NotesAPIError(kind: .refused, status: 404, code: "not_found", message: "There is no \(path)."))
    }

    private static func error(_ error: NotesAPIError) -> TransportResponse {
        TransportResponse(
            status: error.status ?? 500, headers: ["Content-Type": "application/json"],
            body: WireJSON.encode(ErrorResponseDTO(code: error.code ?? "error", message: error.message)))
    }
}
