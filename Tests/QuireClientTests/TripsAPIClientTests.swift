import Foundation
import QuireClient
import QuireTrips
import QuireWire
import Testing

/// The live trips client: its routes, and the status mapping it shares with the notes client.
@Suite struct TripsAPIClientTests {
    let trip = TripID()

    func client(_ transport: HTTPTransport, token: String = "t") -> TripsAPIClient {
        TripsAPIClient(transport: transport, tokens: StaticTokenProvider(token: token))
    }

    @Test(arguments: [
        (410, NotesAPIError.Kind.cursorExpired), (403, .refused), (404, .refused), (413, .refused), (409, .refused),
        (500, .transient), (503, .transient), (429, .transient), (401, .unauthorized),
    ])
    func aStatusMapsToWhatTheEngineDoesAboutIt(_ status: Int, _ kind: NotesAPIError.Kind) async throws {
        let transport = AccountsStubTransport(
            status: status, body: #"{"error":{"code":"some_code","message":"Because."}}"#, headers: ["Retry-After": "7"]
        )
        let error = try await #require(throws: NotesAPIError.self) {
            try await client(transport).changes(of: trip, since: Cursor("r1"), limit: 10)
        }
        #expect(error.kind == kind)
        #expect(error.status == status)
        #expect(error.code == "some_code")
        #expect(error.retryAfter == 7)
    }

    @Test func aLostAnswerIsTransientAndARefusedConnectionUnreachable() async throws {
        let lost = try await #require(throws: NotesAPIError.self) {
            try await client(AccountsStubTransport(.failure(.timedOut))).snapshot(of: trip)
        }
        #expect(lost.kind == .transient)
        let refused = try await #require(throws: NotesAPIError.self) {
            try await client(AccountsStubTransport(.failure(.cannotConnectToHost))).snapshot(of: trip)
        }
        #expect(refused.kind == .unreachable)
    }

    @Test func requestsCarryTheirRoutesTokensAndEncodedCursors() async throws {
        let page = TripChangesPageDTO(changes: [], nextCursor: "r+1", hasMore: false)
        let transport = AccountsStubTransport(status: 200, body: String(decoding: WireJSON.encode(page), as: UTF8.self))
        _ = try await client(transport, token: "secret").changes(of: trip, since: Cursor("r+1/2"), limit: 50)
        let feed = AccountsStubTransport(
            status: 200,
            body: String(
                decoding: WireJSON.encode(TripsFeedPageDTO(trips: [], nextCursor: "f1", hasMore: false)), as: UTF8.self)
        )
        _ = try await client(feed).tripsFeed(since: Cursor("f1"), limit: 1, wait: 25)

        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/v1/trips/\(trip)/changes?limit=50&cursor=r%2B1%2F2")
        #expect(request.headers["Authorization"] == "Bearer secret")
        let poll = try #require(feed.requests.first)
        #expect(poll.path == "/v1/trips?limit=1&since=f1&wait=25")
        #expect(poll.timeout > 25)
    }

    @Test func anOpsAnswerWithTheWrongNumberOfResultsIsNotUnderstood() async throws {
        let answer = TripOpsResponseDTO(results: [], revision: 3)
        let transport = AccountsStubTransport(
            status: 200, body: String(decoding: WireJSON.encode(answer), as: UTF8.self))
        let request = TripOpsRequestDTO(
            opId: "op", ops: [TripOpDTO(item: nil, field: "title", value: "x", valueHash: "h", baseRevision: 0)])
        let error = try await #require(throws: NotesAPIError.self) {
            try await client(transport).send(request, to: trip)
        }
        #expect(error.kind == .invalidResponse)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.path == "/v1/trips/\(trip)/ops")
        #expect(try WireJSON.decoder().decode(TripOpsRequestDTO.self, from: try #require(sent.body)) == request)
    }

    @Test func creatingATripPutsItsWrappedKeyAndTakesTheCallersOwnAgain() async throws {
        for status in [200, 201] {
            let transport = AccountsStubTransport(status: status, body: "{}")
            try await client(transport).createTrip(trip, wrappedKey: "wrapped")
            let sent = try #require(transport.requests.first)
            #expect(sent.method == "PUT")
            #expect(sent.path == "/v1/trips/\(trip)")
            #expect(
                try WireJSON.decoder().decode(CreateTripRequestDTO.self, from: try #require(sent.body)).wrappedKey
                    == "wrapped")
        }
    }
}
