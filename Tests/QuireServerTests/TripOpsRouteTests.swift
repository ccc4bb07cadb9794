import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `PUT /v1/trips/{id}` and `POST /v1/trips/{id}/ops` in process: creation, the rule through the
/// server, idempotent op ids (across a restart too), delete wins and restore, and roles.
final class TripOpsRouteTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""

    /// Builds the server over `store`: every test's first step (a suite's init cannot take the store).
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.token("alice")
    }

    @Test(arguments: StoreKind.allCases) func createIsIdempotentForTheOwnerAndRefusedForAnotherAccount(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = ServerHarness.uuid()
        let first = await harness.putTrip(trip, token: alice)
        let again = await harness.putTrip(
            trip, token: alice, wrappedKey: Data(repeating: 6, count: 60).base64EncodedString())
        let bob = try await harness.token("bob")
        let other = await harness.putTrip(trip, token: bob)

        #expect(first.status == 201)
        let entry = try first.decoded(TripEntryDTO.self)
        #expect(
            entry
                == TripEntryDTO(
                    id: trip, wrappedKey: TripValue.wrappedKey, role: "owner", deleted: false,
                    revision: 0))
        #expect(again.status == 200)
        #expect(try again.decoded(TripEntryDTO.self) == entry)
        #expect(other.status == 409)
        #expect(other.errorCode == "trip_exists")
    }

    @Test(arguments: StoreKind.allCases) func secondOpOfOneFieldInASecondRequestApplies(store: StoreKind) async throws {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let item = ServerHarness.uuid()

        let first = try await harness.ops(
            trip, [TripValue.op(item, "title", "Lunch at Time Out Market")], token: alice)
        let base = try #require(first.results.first?.revision)
        let second = try await harness.ops(
            trip, [TripValue.op(item, "title", "Lunch at Time Out", base: base)], token: alice)

        #expect(first.results.map(\.status) == [.applied])
        #expect(second.results == [TripOpResultDTO(status: .applied, revision: base + 1)])
        #expect(second.revision == 2)
    }

    @Test(arguments: StoreKind.allCases) func oneRequestHoldsMixedResultsInOrder(store: StoreKind) async throws {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let item = ServerHarness.uuid()
        _ = try await harness.ops(
            trip, [TripValue.op(item, "title", "Lunch"), TripValue.op(item, "start", "10:00")],
            token: alice)

        let response = try await harness.ops(
            trip,
            [
                TripValue.op(item, "location", "Mercado da Ribeira"),
                TripValue.op(item, "start", "12:30"),
                TripValue.op(item, "title", "Lunch"),
                TripValue.op(nil, "title", "Lisbon 2027"),
            ], token: alice)

        #expect(
            response.results == [
                TripOpResultDTO(status: .applied, revision: 3),
                TripOpResultDTO(
                    status: .conflict, conflictField: "start",
                    serverValue: TripValue.sealed("10:00"), serverValueHash: TripValue.hash("10:00"),
                    serverRevision: 2),
                TripOpResultDTO(status: .applied, revision: 1),
                TripOpResultDTO(status: .applied, revision: 4),
            ])
        #expect(response.revision == 4)
        let snapshot = try await harness.snapshot(trip, token: alice)
        #expect(snapshot.trip.revision == 4)
        #expect(snapshot.fields.map(\.revision) == [1, 2, 3, 4])
    }

    @Test(arguments: StoreKind.allCases) func repeatedOpIDGetsItsFirstAnswerByteForByte(store: StoreKind) async throws {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let item = ServerHarness.uuid()
        let opID = ServerHarness.uuid()
        let ops = [TripValue.op(item, "title", "Lunch")]
        let first = await harness.opsResponse(trip, ops, opID: opID, token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Dinner", base: 1)], token: alice)

        let again = await harness.opsResponse(trip, ops, opID: opID, token: alice)

        #expect(first.status == 200)
        #expect(again.status == 200)
        #expect(again.body == first.body)
        #expect(again.header("Idempotent-Replayed") == "true")
        let title = try await harness.snapshot(trip, token: alice).fields.first { $0.field == "title" }
        #expect(title?.value == TripValue.sealed("Dinner"))
        #expect(title?.revision == 2)
    }

    @Test(arguments: StoreKind.allCases) func repeatedOpIDIsAnsweredTheSameAfterARestart(store: StoreKind) async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let opID = ServerHarness.uuid()
        let ops = [TripValue.op(ServerHarness.uuid(), "title", "Lunch")]
        let first = await harness.opsResponse(trip, ops, opID: opID, token: alice)
        await harness.server.shutDown()

        let clock = harness.clock
        let restarted: NotesServer
        if store == .postgres {
            restarted = try await harness.secondInstance()
        } else {
            restarted = try NotesServer.sqlite(
                path: harness.databasePath, configuration: ServerHarness.configuration,
                now: { clock.now }, log: { _ in })
        }
        let again = await restarted.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.tripOps(trip),
                headers: ["Authorization": "Bearer \(alice)"],
                body: WireJSON.encode(TripOpsRequestDTO(opId: opID, ops: ops))))
        await restarted.shutDown()

        #expect(first.status == 200)
        #expect(again.status == 200)
        #expect(again.body == first.body)
        #expect(again.header("Idempotent-Replayed") == "true")
    }

    @Test(arguments: StoreKind.allCases) func reusedOpIDWithOtherOpsIsRefusedAndChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let item = ServerHarness.uuid()
        let opID = ServerHarness.uuid()
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], opID: opID, token: alice)

        let reused = await harness.opsResponse(
            trip, [TripValue.op(item, "title", "Dinner", base: 1)], opID: opID, token: alice)

        #expect(reused.status == 422)
        #expect(reused.errorCode == "op_id_reused")
        #expect(try await harness.snapshot(trip, token: alice).trip.revision == 1)
    }

    @Test(arguments: StoreKind.allCases) func deleteWinsAndRestoreBringsTheItemBackWithTheEditedValues(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let laptop = try await harness.token("alice")
        let item = ServerHarness.uuid()
        let created = try await harness.ops(
            trip,
            [
                TripValue.op(item, "title", "Lunch"), TripValue.op(item, "start", "10:00"),
                TripValue.deleted(item, false, base: 0),
            ], token: alice)
        let deletedBase = try #require(created.results.last?.revision)
        // The phone deletes the item while the laptop, offline, edits it.
        let delete = try await harness.ops(
            trip, [TripValue.deleted(item, true, base: deletedBase)], token: alice)
        let deleteRevision = try #require(delete.results.first?.revision)

        let edit = try await harness.ops(
            trip, [TripValue.op(item, "title", "Lunch at Time Out Market", base: 1)], token: laptop)
        let restore = try await harness.ops(
            trip,
            [
                TripValue.deleted(item, false, base: deleteRevision),
                TripValue.op(item, "title", "Lunch at Time Out Market", base: 1),
            ], token: laptop)

        #expect(
            edit.results == [
                TripOpResultDTO(
                    status: .conflict, conflictField: "deleted", serverValue: "true",
                    serverRevision: deleteRevision)
            ])
        #expect(restore.results.map(\.status) == [.applied, .applied])
        let fields = try await harness.snapshot(trip, token: alice).fields
        let values = Dictionary(uniqueKeysWithValues: fields.map { ($0.field, $0.value) })
        #expect(values["deleted"] == "false")
        #expect(values["title"] == TripValue.sealed("Lunch at Time Out Market"))
        #expect(values["start"] == TripValue.sealed("10:00"))
    }

    @Test(arguments: StoreKind.allCases) func viewersOpsAreForbiddenAndChangeNothing(store: StoreKind) async throws {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        _ = try await harness.ops(trip, [TripValue.op(nil, "title", "Lisbon")], token: alice)
        let bob = try await harness.token("bob")
        try await harness.addMember(trip, username: "bob", role: .viewer)

        let refused = await harness.opsResponse(
            trip, [TripValue.op(nil, "title", "Porto", base: 1)], token: bob)
        let read = try await harness.snapshot(trip, token: bob)

        #expect(refused.status == 403)
        #expect(refused.errorCode == "forbidden")
        #expect(read.trip.role == "viewer")
        #expect(read.trip.revision == 1)
        #expect(read.fields.map(\.value) == [TripValue.sealed("Lisbon")])
    }

    @Test(arguments: StoreKind.allCases) func anEditorsOpsApply(store: StoreKind) async throws {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let bob = try await harness.token("bob")
        try await harness.addMember(trip, username: "bob", role: .editor)

        let response = try await harness.ops(trip, [TripValue.op(nil, "title", "Porto")], token: bob)

        #expect(response.results == [TripOpResultDTO(status: .applied, revision: 1)])
    }

    @Test(arguments: StoreKind.allCases) func onlyAnOwnerDeletesTheTripAnEditorDeletesItems(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        let item = ServerHarness.uuid()
        let bob = try await harness.token("bob")
        try await harness.addMember(trip, username: "bob", role: .editor)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: bob)

        let response = try await harness.ops(
            trip, [TripValue.deleted(nil, true, base: 0), TripValue.deleted(item, true, base: 1)], token: bob)
        let entry = try await harness.snapshot(trip, token: alice).trip

        #expect(
            response.results == [
                TripOpResultDTO(status: .rejected, reason: TripMergeRule.ownersOnlyReason),
                TripOpResultDTO(status: .applied, revision: 2),
            ])
        #expect(!entry.deleted)
        let owners = try await harness.ops(trip, [TripValue.deleted(nil, true, base: 0)], token: alice)
        #expect(owners.results.map(\.status) == [.applied])
    }

    @Test(arguments: StoreKind.allCases) func anItemOpInADeletedTripIsRejectedWhileTheTripIsDeleted(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let trip = try await harness.newTrip(token: alice)
        _ = try await harness.ops(trip, [TripValue.deleted(nil, true, base: 0)], token: alice)

        let response = try await harness.ops(
            trip, [TripValue.op(ServerHarness.uuid(), "title", "Lunch")], token: alice)
        let entry = try await harness.snapshot(trip, token: alice).trip

        #expect(response.results == [TripOpResultDTO(status: .rejected, reason: "trip_deleted")])
        #expect(entry.deleted)
        #expect(entry.revision == 1)
    }
}
