import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 5: the background work (tombstones, idempotency records, history, revoked
/// sessions) runs in bounded batches on both stores, and on one instance at a time when several
/// share a PostgreSQL database.
struct BackgroundWorkTests {
    static func configuration(batch: Int) -> NotesServerConfiguration {
        var configuration = ServerHarness.configuration
        configuration.backgroundBatchSize = batch
        return configuration
    }

    static let retention: TimeInterval = 30 * 86_400

    @Test(arguments: StoreKind.allCases)
    func aPassDeletesEverythingDueInBatchesOfTheSetSize(store: StoreKind) async throws {
        // Given 25 deleted notes (50 idempotency records) and two signed-out devices, a month
        // and more ago, and batches of 10.
        let harness = try await ServerHarness(store: store, configuration: Self.configuration(batch: 10))
        let token = try await harness.token("ann")
        let cursor = try await harness.changes(token: token).nextCursor
        try await Self.createTombstones(25, on: harness.server, token: token)
        for device in ["old phone", "old tablet"] {
            let session = try await harness.session("ann", device: device)
            let signedOut = await harness.server.handle(
                HTTPRequest(
                    method: "DELETE", path: WireRoutes.currentSession,
                    headers: ["Authorization": "Bearer \(session.accessToken)"]))
            try #require(signedOut.status == 204, "sign-out answered \(signedOut.status)")
        }
        _ = try await harness.session("ann", device: "new phone")
        harness.clock.advance(by: Self.retention + 86_400)

        // When a pass runs.
        let report = try #require(
            try await harness.server.runBackgroundWork(olderThan: harness.clock.now.addingTimeInterval(-Self.retention))
        )

        // Then it deleted all of it, never more than 10 rows of a kind in one batch.
        #expect(report.tombstones == 25)
        #expect(report.idempotencyRecords == 50)
        #expect(report.sessions == 2)
        #expect(report.largestBatch <= 10, "a batch deleted \(report.largestBatch) rows")
        #expect(report.batches >= 3 + 1)
        // And the purge kept its rules: a cursor from before the purged deletes has expired.
        let token2 = try await harness.token("ann")
        #expect(await harness.changesResponse(token: token2, since: cursor).errorCode == "cursor_expired")
        let again = try #require(
            try await harness.server.runBackgroundWork(olderThan: harness.clock.now.addingTimeInterval(-Self.retention))
        )
        #expect(again.tombstones == 0 && again.sessions == 0)
    }

    @Test func twoInstancesStartingAPassAtOnceLeaveTheWorkToOne() async throws {
        // Given two instances on one database, 60 deleted notes long ago, and batches of 5.
        let harness = try await ServerHarness(store: .postgres, configuration: Self.configuration(batch: 5))
        let second = try await harness.secondInstance(configuration: Self.configuration(batch: 5))
        let token = try await harness.token("ann")
        try await Self.createTombstones(60, on: harness.server, token: token)
        harness.clock.advance(by: Self.retention + 86_400)
        let cutoff = harness.clock.now.addingTimeInterval(-Self.retention)

        // When both run a pass at the same moment.
        async let first = harness.server.runBackgroundWork(olderThan: cutoff, pruningHistory: false)
        async let other = second.runBackgroundWork(olderThan: cutoff, pruningHistory: false)
        let reports = [try await first, try await other]

        // Then exactly one of them did the work, in bounded batches; the other found it taken
        // (nil) or, starting after it, nothing left.
        let working = reports.compactMap { $0 }.filter { $0.tombstones + $0.idempotencyRecords + $0.marks > 0 }
        try #require(working.count == 1, "reports: \(reports)")
        #expect(working[0].tombstones == 60 && working[0].idempotencyRecords == 120)
        #expect(working[0].largestBatch <= 5)
        #expect(reports.compactMap { $0 }.map(\.idempotencyRecords).reduce(0, +) == 120)
    }

    /// Creates `count` notes and deletes them, through the batch route.
    static func createTombstones(_ count: Int, on server: NotesServer, token: String) async throws {
        let ids = (0..<count).map { _ in ServerHarness.uuid() }
        for (op, version) in [("put", nil), ("delete", 1)] as [(String, Int?)] {
            let changes = ids.map { id in
                BatchChangeDTO(
                    op: op, id: id, idempotencyKey: UUID().uuidString, payload: op == "put" ? "p" : nil,
                    baseVersion: version)
            }
            let response = await server.handle(
                HTTPRequest(
                    method: "POST", path: WireRoutes.batch, headers: ["Authorization": "Bearer \(token)"],
                    body: WireJSON.encode(BatchRequestDTO(changes: changes))))
            try #require(response.status == 200, "batch answered \(response.status): \(response.text)")
        }
    }
}
