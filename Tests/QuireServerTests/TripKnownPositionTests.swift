import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// What a trips device needs to notice a server restored from an older backup, and an item's
/// delete that had not seen an edit (issue 14; found by the simulation, seeds 4 and 22). The
/// restore cases need the SQLite backup and run on SQLite; the others on both stores.
final class TripKnownPositionTests {
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var trip = ""
    let item = ServerHarness.uuid()

    /// Builds the server over `store`: every test's first step (a suite's init cannot take the store).
    func setUp(_ store: StoreKind) async throws {
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip(store)
        self.harness = harness
        self.alice = alice
        self.trip = trip
    }

    /// The SQLite store, whose backup and restore the restore cases use (they run on SQLite alone).
    private var storage: SQLiteServerStorage {
        get throws { try #require(harness.server.storage as? SQLiteServerStorage) }
    }

    private func backUp() async throws -> String {
        let path = harness.directory.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path
        try await storage.backUp(to: path)
        return path
    }

    private func expectInvalidCursor(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 400, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.errorCode == "invalid_cursor", sourceLocation: sourceLocation)
    }

    @Test(arguments: StoreKind.allCases) func anAnswerThatWroteCarriesThePositionItLeftTheTripAt(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let wrote = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        let position = try #require(wrote.position)
        let page = try await harness.tripChanges(trip, cursor: position, token: alice)
        #expect(page.changes.isEmpty)

        // Nothing written, no position: the value was already there.
        let same = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        #expect(same.position == nil)
        #expect(same.results.map(\.status) == [.applied])
    }

    @Test func aKnownPositionOfThisHistoryPassesAndOneARestoreForgotIsInvalid() async throws {
        try await setUp(.sqlite)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        let before = try await harness.tripChanges(trip, token: alice).nextCursor
        let backup = try await backUp()
        let lost = try #require(
            try await harness.ops(trip, [TripValue.op(item, "notes", "book ahead", base: 1)], token: alice).position)
        let kept = await harness.tripChangesResponse(trip, cursor: before, known: lost, token: alice)
        #expect(kept.status == 200)

        try await storage.restore(fromBackupAt: backup)
        // The restored server hands the same revision to another write: the cursor from before the
        // backup is still good, the known position is not.
        _ = try await harness.ops(trip, [TripValue.op(item, "location", "Cais do Sodré", base: 1)], token: alice)
        #expect(await harness.tripChangesResponse(trip, cursor: before, token: alice).status == 200)
        expectInvalidCursor(await harness.tripChangesResponse(trip, cursor: before, known: lost, token: alice))
        expectInvalidCursor(
            await harness.tripChangesResponse(trip, cursor: before, known: "not-a-position", token: alice))
    }

    @Test(arguments: StoreKind.allCases) func anItemsTombstoneKeepsTheRevisionItsDeleterHadSeen(store: StoreKind)
        async throws
    {
        try await setUp(store)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(item, "notes", "book ahead", base: 1)], token: alice)
        // The deleter had seen the item up to revision 1 only.
        let deleted = try await harness.ops(trip, [TripValue.deleted(item, true, base: 1)], token: alice)
        #expect(deleted.results.map(\.status) == [.applied])

        let tombstone = { [item] (fields: [TripFieldDTO]) in fields.first { $0.item == item && $0.field == "deleted" } }
        #expect(tombstone(try await harness.tripChanges(trip, token: alice).changes)?.seenRevision == 1)
        #expect(tombstone(try await harness.snapshot(trip, token: alice).fields)?.seenRevision == 1)
        // Other fields, and a restore, carry none.
        let restored = try await harness.ops(trip, [TripValue.deleted(item, false, base: 3)], token: alice)
        #expect(restored.results.map(\.status) == [.applied])
        let fields = try await harness.tripChanges(trip, token: alice).changes
        #expect(fields.allSatisfy { $0.seenRevision == nil })
    }

    @Test func everyKnownPositionIsCheckedAndAtMost32GoInOnePull() async throws {
        try await setUp(.sqlite)
        let kept = try #require(
            try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice).position)
        let backup = try await backUp()
        let lost = try #require(
            try await harness.ops(trip, [TripValue.op(item, "notes", "book ahead", base: 1)], token: alice).position)
        try await storage.restore(fromBackupAt: backup)
        let taken = try #require(
            try await harness.ops(trip, [TripValue.op(item, "location", "Cais do Sodré", base: 1)], token: alice)
                .position)

        #expect(await harness.tripChangesResponse(trip, known: "\(kept),\(taken)", token: alice).status == 200)
        // The restored server's own write at the forgotten one's revision does not hide it.
        expectInvalidCursor(await harness.tripChangesResponse(trip, known: "\(kept),\(lost),\(taken)", token: alice))
        let tooMany = Array(repeating: kept, count: 33).joined(separator: ",")
        expectInvalidCursor(await harness.tripChangesResponse(trip, known: tooMany, token: alice))
    }

    @Test func opsWhoseBasesComeFromAForgottenHistoryApplyNothing() async throws {
        try await setUp(.sqlite)
        _ = try await harness.ops(trip, [TripValue.op(item, "title", "Lunch")], token: alice)
        let backup = try await backUp()
        _ = try await harness.ops(trip, [TripValue.op(item, "notes", "book ahead", base: 1)], token: alice)
        let cursor = try await harness.tripChanges(trip, token: alice).nextCursor
        try await storage.restore(fromBackupAt: backup)
        _ = try await harness.ops(trip, [TripValue.op(item, "location", "Cais do Sodré", base: 1)], token: alice)

        // Base 2 meant the notes of the forgotten history; here revision 2 is the location.
        let refused = await harness.opsResponse(
            trip, [TripValue.op(item, "location", "Rossio", base: 2)], cursor: cursor, token: alice)
        expectInvalidCursor(refused)
        let fields = try await harness.snapshot(trip, token: alice).fields
        #expect(fields.first { $0.field == "location" }?.value == TripValue.sealed("Cais do Sodré"))
        // With this history's cursor the same op is decided by the rule.
        let current = try await harness.tripChanges(trip, token: alice).nextCursor
        let decided = await harness.opsResponse(
            trip, [TripValue.op(item, "location", "Rossio", base: 2)], cursor: current, token: alice)
        #expect(decided.status == 200)
    }
}
