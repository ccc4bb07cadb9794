import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13, trips on PostgreSQL: many ops requests to one trip at once keep its revisions
/// gap-free and unique, and a request sent twice at once (a device's resend) is applied once.
/// On PostgreSQL the requests go through two server instances on one database, each of a pair
/// of resends to a different one; a trip row not locked for the request would let two requests
/// take one revision, or both copies of a resend apply.
struct TripOpsUnderConcurrentWritersTests {
    static let writers = 6
    static let requestsPerWriter = 8

    @Test(arguments: StoreKind.allCases)
    func concurrentRequestsTakeGapFreeUniqueRevisionsAndAResendAppliesOnce(store: StoreKind) async throws {
        // Given one trip and its writers, on one or two instances.
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip(store)
        let instances = [harness.server] + (store == .postgres ? [try await harness.secondInstance()] : [])

        // When each writer sends its requests, each a new item's title, and each request twice
        // at once with one op id, through both instances.
        let answers = try await withThrowingTaskGroup(of: [(item: String, revision: Int)].self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    var mine: [(item: String, revision: Int)] = []
                    for index in 0..<Self.requestsPerWriter {
                        let item = ServerHarness.uuid()
                        let request = TripOpsRequestDTO(
                            opId: ServerHarness.uuid(), ops: [TripValue.op(item, "title", "Stop \(writer).\(index)")])
                        async let first = Self.send(request, trip, to: instances[index % instances.count], token: alice)
                        let second = await Self.send(
                            request, trip, to: instances[(index + 1) % instances.count], token: alice)
                        let one = await first
                        try #require(one.status == 200, "ops answered \(one.status): \(one.text)")
                        try #require(second.status == 200, "ops answered \(second.status): \(second.text)")
                        #expect(one.body == second.body, "a resend got another answer than its first copy")
                        let answer = try one.decoded(TripOpsResponseDTO.self)
                        try #require(answer.results.map(\.status) == [.applied])
                        mine.append((item, try #require(answer.results.first?.revision)))
                    }
                    return mine
                }
            }
            var all: [(item: String, revision: Int)] = []
            for try await written in group { all += written }
            return all
        }

        // Then the revisions are 1…n, each once, and the trip holds each item once at its own.
        let count = Self.writers * Self.requestsPerWriter
        #expect(answers.count == count)
        #expect(answers.map(\.revision).sorted() == Array(1...count))
        let snapshot = try await harness.snapshot(trip, token: alice)
        #expect(snapshot.trip.revision == count)
        let stored = Dictionary(snapshot.fields.map { ($0.item ?? "", $0.revision) }, uniquingKeysWith: { a, _ in a })
        #expect(snapshot.fields.count == count)
        #expect(stored == Dictionary(answers.map { ($0.item, $0.revision) }, uniquingKeysWith: { a, _ in a }))
        let changes = try await harness.tripChanges(trip, limit: 500, token: alice)
        #expect(changes.changes.map(\.revision) == Array(1...count))
    }

    private static func send(_ request: TripOpsRequestDTO, _ trip: String, to server: NotesServer, token: String)
        async -> HTTPResponse
    {
        await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripOps(trip), headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(request)))
    }
}
