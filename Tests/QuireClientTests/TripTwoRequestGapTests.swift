import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// Seed 002 §3's known gap, closed: one person edits a field twice offline and the two edits
/// travel in two requests. Against the server's rule a second op on the base its person saw would
/// meet the first op's revision as someone else's change; it must build on its own first change.
@Suite struct TripTwoRequestGapTests {
    @Test func aSecondEditSentInASecondRequestBuildsOnTheFirstInsteadOfConflicting() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let phone = try cluster.addDevice("phone")
        let laptop = try cluster.addDevice("laptop")
        let trip = try await phone.database.createTrip(title: "Lisbon")
        let lunch = try await phone.database.addItem(to: trip, [.title: "Lunch", .order: "a"])
        #expect(await phone.sync().succeeded)

        // The first edit travels; the second is typed while the first's request is on the way,
        // so it cannot fold into it and goes in a second request.
        try await phone.database.editItem(lunch, [.start: Lisbon.noon])
        let requestsBefore = await cluster.server.opsRequests
        let once = OnceFlag()
        await cluster.server.onOps { _, _ in
            guard once.claim() else { return }
            try? await phone.database.editItem(lunch, [.start: Lisbon.halfPastTwelve])
        }
        let report = await phone.sync()

        #expect(report.succeeded)
        #expect(report.fieldConflicts == 0)
        #expect(await cluster.server.opsRequests - requestsBefore == 2)
        #expect(try await phone.database.conflicts().isEmpty)
        let item = try #require(try await phone.item(lunch))
        #expect(item.start?.fieldValue == Lisbon.halfPastTwelve)
        #expect(!item.hasPendingChanges)
        await laptop.sync()
        #expect(try await laptop.item(lunch)?.start?.fieldValue == Lisbon.halfPastTwelve)
    }

    @Test func theSameSecondOpWithoutTheRebaseIsWhatTheServerWouldCallAConflict() async throws {
        // The rule the rebase exists for: an op on a base older than the field's revision, with
        // another value, conflicts, even when the newer revision was this device's own.
        let server = InMemoryTripsServer()
        let api = InMemoryTripsAPI(server: server, account: "alice")
        let trip = TripID()
        let item = ItemID().description
        try await api.createTrip(trip, wrappedKey: "w")
        let first = TripOpDTO(item: item, field: "start", value: "sealed 12:00", valueHash: "a", baseRevision: 0)
        let second = TripOpDTO(item: item, field: "start", value: "sealed 12:30", valueHash: "b", baseRevision: 0)
        _ = try await api.send(TripOpsRequestDTO(opId: "1", ops: [first]), to: trip)
        let answer = try await api.send(TripOpsRequestDTO(opId: "2", ops: [second]), to: trip)
        #expect(answer.results.map(\.status) == [.conflict])
    }
}
