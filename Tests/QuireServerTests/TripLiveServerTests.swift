import Foundation
import QuireClient
import QuireWire
import Testing

@testable import QuireServer

/// The trips routes behind the real libmicrohttpd host on a loopback port.
struct TripLiveServerTests {
    let harness: ServerHarness
    let host: MicroHTTPServer
    let alice: String
    let bob: String
    /// The device's own transport: URLSession on Linux ignores its timeout and, under a loaded
    /// parallel run, left a request unanswered until it gave up (-1001, seen in CI).
    let transport: CurlTransport

    init() async throws {
        harness = try ServerHarness()
        alice = try await harness.token("alice")
        bob = try await harness.token("bob")
        host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
        transport = CurlTransport(baseURL: host.baseURL)
    }

    private func send(
        _ method: String, _ path: String, query: String = "", token: String, body: Data? = nil
    ) async throws -> (status: Int, body: Data, headers: [String: String]) {
        let answer = try await transport.send(
            TransportRequest(
                method: method, path: path + query, headers: ["Authorization": "Bearer \(token)"],
                body: body, timeout: 40))
        return (answer.status, answer.body, answer.headers)
    }

    @Test func aTripSyncsOverHTTP() async throws {
        let trip = ServerHarness.uuid()
        let item = ServerHarness.uuid()
        let ops = WireJSON.encode(
            TripOpsRequestDTO(
                opId: ServerHarness.uuid(),
                ops: [TripValue.op(item, "title", "Lunch"), TripValue.op(item, "start", "10:00")]))

        let created = try await send(
            "PUT", WireRoutes.trip(trip), token: alice,
            body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: TripValue.wrappedKey)))
        let applied = try await send("POST", WireRoutes.tripOps(trip), token: alice, body: ops)
        let replayed = try await send("POST", WireRoutes.tripOps(trip), token: alice, body: ops)
        let changes = try await send(
            "GET", WireRoutes.tripChanges(trip), query: "?limit=1", token: alice)
        let borrowed = try await send("GET", WireRoutes.trip(trip), token: bob)
        await host.stop()

        #expect(created.status == 201)
        #expect(applied.status == 200)
        #expect(applied.headers["content-type"] == "application/json")
        let results = try WireJSON.decoder().decode(TripOpsResponseDTO.self, from: applied.body)
        #expect(results.results.compactMap(\.revision) == [1, 2])
        #expect(replayed.body == applied.body)
        #expect(replayed.headers["idempotent-replayed"] == "true")
        let page = try WireJSON.decoder().decode(TripChangesPageDTO.self, from: changes.body)
        #expect(page.changes.map(\.field) == ["title"])
        #expect(page.hasMore)
        #expect(borrowed.status == 404)
        #expect(try JSONDecoder().decode(ErrorResponseDTO.self, from: borrowed.body).error.code == "not_found")
    }

    @Test func aTripsPollOverHTTPWakesOnAnOpsRequest() async throws {
        let trip = try await harness.newTrip(token: alice)
        let cursor = try await harness.tripsFeed(token: alice).nextCursor
        let poll = Task { [self] in
            try await send("GET", WireRoutes.trips, query: "?since=\(cursor)&wait=30", token: alice)
        }
        try #require(await eventually { await harness.server.tripNotifier.waiterCount == 1 })

        let ops = try await send(
            "POST", WireRoutes.tripOps(trip), token: alice,
            body: WireJSON.encode(
                TripOpsRequestDTO(
                    opId: ServerHarness.uuid(), ops: [TripValue.op(nil, "title", "Lisbon")])))
        let woken = try await poll.value
        await host.stop()

        #expect(ops.status == 200)
        #expect(woken.status == 200)
        let page = try WireJSON.decoder().decode(TripsFeedPageDTO.self, from: woken.body)
        #expect(page.trips.map(\.id) == [trip])
    }

    @Test func badOpsOverHTTPGetTheJSONErrorAndTheServerKeepsServing() async throws {
        let trip = try await harness.newTrip(token: alice)

        let bad = try await send(
            "POST", WireRoutes.tripOps(trip), token: alice, body: Data(#"{"opId":"x","ops":[]}"#.utf8))
        // (An oversize body is refused by the host before any route: MicroHTTPServerTests.)
        let cursor = try await send("GET", WireRoutes.tripChanges(trip), query: "?cursor=x", token: alice)
        let snapshot = try await send("GET", WireRoutes.trip(trip), token: alice)
        await host.stop()

        #expect(bad.status == 400)
        #expect(try JSONDecoder().decode(ErrorResponseDTO.self, from: bad.body).error.code == "invalid_request")
        #expect(cursor.status == 400)
        #expect(snapshot.status == 200)
    }
}
