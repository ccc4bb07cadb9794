import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// The in-memory trips server applies the server's rule faithfully (seed 002 §3, issue 14): the
/// device's trips code is only as good as the twin it is tested against.
@Suite struct TripsServerTwinTests {
    let server = InMemoryTripsServer()
    var api: InMemoryTripsAPI { InMemoryTripsAPI(server: server, account: "alice") }
    let trip = TripID()
    let item = ItemID()

    /// An op whose hash is its value: the twin compares hashes and never reads values.
    func op(_ field: String, _ value: String?, base: Int, item: ItemID? = nil) -> TripOpDTO {
        TripOpDTO(
            item: (item ?? self.item).description, field: field, value: value, valueHash: value.map { "h:\($0)" },
            baseRevision: base)
    }

    func send(_ ops: TripOpDTO...) async throws -> [TripOpResultDTO] {
        try await api.send(TripOpsRequestDTO(opId: UUID().uuidString.lowercased(), ops: ops), to: trip).results
    }

    @Test func theRuleTakesNewFieldsCurrentBasesAndEqualValuesAndReportsStaleOnes() async throws {
        try await api.createTrip(trip, wrappedKey: "wrapped")
        // A field that does not exist yet applies, taking the trip's next revision.
        #expect(try await send(op("title", "Lunch", base: 0)).map(\.revision) == [1])
        // A base at the current revision applies.
        #expect(try await send(op("title", "Brunch", base: 1)).map(\.revision) == [2])
        // A stale base with another value is a conflict carrying the server's value.
        let stale = try #require(try await send(op("title", "Dinner", base: 1)).first)
        #expect(stale.status == .conflict)
        #expect(stale.conflictField == "title")
        #expect(stale.serverValue == "Brunch")
        #expect(stale.serverValueHash == "h:Brunch")
        #expect(stale.serverRevision == 2)
        // A stale base with the same value applies, with no new revision.
        let same = try #require(try await send(op("title", "Brunch", base: 0)).first)
        #expect(same.status == .applied)
        #expect(same.revision == 2)
        #expect(await server.revision(of: trip) == 2)
    }

    @Test func editsOfDifferentFieldsBothApplyInEitherOrder() async throws {
        for order in [["title", "start"], ["start", "title"]] {
            let trip = TripID()
            try await api.createTrip(trip, wrappedKey: "w")
            let base = try await api.send(
                TripOpsRequestDTO(
                    opId: UUID().uuidString, ops: [op("title", "Lunch", base: 0), op("start", "12:00", base: 0)]),
                to: trip)
            #expect(base.revision == 2)
            for field in order {
                let answer = try await api.send(
                    TripOpsRequestDTO(opId: UUID().uuidString, ops: [op(field, "new \(field)", base: 2)]), to: trip)
                #expect(answer.results.map(\.status) == [.applied])
            }
            #expect(await server.field(trip, item: item, "title")?.value == "new title")
            #expect(await server.field(trip, item: item, "start")?.value == "new start")
        }
    }

    @Test func aDeleteWinsOverEveryFieldButDeletedItself() async throws {
        try await api.createTrip(trip, wrappedKey: "w")
        _ = try await send(op("title", "Lunch", base: 0))
        #expect(try await send(op("deleted", "true", base: 0)).map(\.revision) == [2])

        let edit = try #require(try await send(op("title", "Lunch at noon", base: 1)).first)
        #expect(edit.status == .conflict)
        #expect(edit.conflictField == "deleted")
        #expect(edit.serverValue == "true")
        #expect(edit.serverRevision == 2)
        // `deleted` compares by its plain value; restoring on the delete's revision applies.
        #expect(try await send(op("deleted", "true", base: 0)).map(\.revision) == [2])
        let restored = try await send(op("deleted", "false", base: 2), op("title", "Lunch at noon", base: 1))
        #expect(restored.map(\.status) == [.applied, .applied])
        #expect(try await send(op("deleted", "maybe", base: 3)).map(\.status) == [.rejected])
    }

    @Test func aRepeatedOpIDGetsItsFirstAnswerAndAppliesNothingAgain() async throws {
        try await api.createTrip(trip, wrappedKey: "w")
        let request = TripOpsRequestDTO(opId: "op-1", ops: [op("title", "Lunch", base: 0)])
        let first = try await api.send(request, to: trip)
        _ = try await send(op("title", "Brunch", base: 1))
        let again = try await api.send(request, to: trip)
        #expect(again == first)
        #expect(await server.applied.count == 2)
        #expect(await server.field(trip, item: item, "title")?.value == "Brunch")
    }

    @Test func changesComeInRevisionOrderAfterTheCursorAndAnExpiredCursorIs410() async throws {
        try await api.createTrip(trip, wrappedKey: "w")
        _ = try await send(op("title", "Lunch", base: 0), op("start", "12:00", base: 0))
        _ = try await send(op("title", "Brunch", base: 1))
        let all = try await api.changes(of: trip, since: nil, limit: 200)
        #expect(all.changes.map(\.revision) == [2, 3])
        let page = try await api.changes(of: trip, since: Cursor("r2"), limit: 200)
        #expect(page.changes.map(\.value) == ["Brunch"])
        #expect(page.nextCursor == "r3")

        await server.expireCursors(of: trip)
        let error = try await #require(throws: NotesAPIError.self) {
            try await api.changes(of: trip, since: Cursor("r2"), limit: 200)
        }
        #expect(error.kind == .cursorExpired)
        #expect(try await api.changes(of: trip, since: Cursor("r3"), limit: 200).changes.isEmpty)
        #expect(try await api.snapshot(of: trip).cursor == "r3")
    }

    @Test func anotherAccountCannotSeeOrWriteTheTrip() async throws {
        try await api.createTrip(trip, wrappedKey: "w")
        let bob = InMemoryTripsAPI(server: server, account: "bob")
        for attempt in [
            { _ = try await bob.snapshot(of: trip) },
            { _ = try await bob.changes(of: trip, since: nil, limit: 10) },
            { _ = try await bob.send(TripOpsRequestDTO(opId: "x", ops: [op("title", "mine", base: 0)]), to: trip) },
            { try await bob.createTrip(trip, wrappedKey: "bob's") },
        ] as [@Sendable () async throws -> Void] {
            let error = try await #require(throws: NotesAPIError.self) { try await attempt() }
            #expect(error.kind == .refused)
        }
        #expect(try await bob.tripsFeed(since: nil, limit: 10, wait: 0).trips.isEmpty)
    }
}
