import Foundation
import QuirePostgres
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// The account's live-note counters the quota reads (`accounts.live_notes`, `live_bytes`, kept by
/// triggers on `notes`) always equal a count of its notes, whatever wrote them: puts that add,
/// grow and shrink, deletes, a note brought back, a batch, a history restore and the purge.
struct AccountUsageCounterTests {
    /// The counters and a fresh count of the account's live notes, as "notes/bytes".
    static func usage(_ harness: ServerHarness, account: String) throws -> (counters: String, counted: String) {
        let counters = "SELECT live_notes, live_bytes FROM accounts WHERE username = "
        if let connection = harness.postgresConnectionString {
            let db = try PostgresConnection(connection)
            let kept = try db.queryFirst(counters + "$1", account) { "\(try $0.int(0))/\(try $0.int(1))" }
            let counted = try db.queryFirst(
                """
                SELECT COUNT(*), COALESCE(SUM(octet_length(payload)), 0)::bigint FROM notes
                WHERE NOT deleted AND account_id = (SELECT id FROM accounts WHERE username = $1)
                """, account
            ) { "\(try $0.int(0))/\(try $0.int(1))" }
            return (kept ?? "none", counted ?? "none")
        }
        let db = try SQLiteConnection(path: harness.directory.appendingPathComponent("server.sqlite").path)
        let kept = try db.queryFirst(counters + "?", account) { "\($0.int(0))/\($0.int(1))" }
        let counted = try db.queryFirst(
            """
            SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(payload AS BLOB))), 0) FROM notes
            WHERE deleted = 0 AND account_id = (SELECT id FROM accounts WHERE username = ?)
            """, account
        ) { "\($0.int(0))/\($0.int(1))" }
        return (kept ?? "none", counted ?? "none")
    }

    @Test(arguments: StoreKind.allCases) func theCountersEqualACountAfterEveryKindOfWrite(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store, configuration: BackgroundWorkTests.configuration(batch: 10))
        let token = try await harness.server.createAccount(username: "ann")
        let other = try await harness.server.createAccount(username: "bob")
        let (kept, grown, dropped) = (ServerHarness.uuid(), ServerHarness.uuid(), ServerHarness.uuid())
        var steps: [String] = []
        func check(_ step: String) throws {
            let usage = try Self.usage(harness, account: "ann")
            #expect(usage.counters == usage.counted, "after \(step)")
            steps.append(step)
        }

        #expect(await harness.put(kept, payload: "café au lait", base: nil, token: token).status == 200)
        #expect(await harness.put(grown, payload: "a", base: nil, token: token).status == 200)
        #expect(await harness.put(dropped, payload: "gone soon", base: nil, token: token).status == 200)
        #expect(await harness.put(ServerHarness.uuid(), payload: "bob's", base: nil, token: other).status == 200)
        try check("three puts")
        #expect(
            await harness.put(grown, payload: String(repeating: "b", count: 500), base: 1, token: token).status == 200)
        #expect(await harness.put(kept, payload: "tea", base: 1, token: token).status == 200)
        try check("a growing and a shrinking edit")
        #expect(await harness.delete(dropped, base: 1, token: token).status == 204)
        try check("a delete")
        #expect(await harness.put(dropped, payload: "back again", base: 2, token: token).status == 200)
        try check("an edit that brings the deleted note back")
        #expect(await harness.delete(dropped, base: 3, token: token).status == 204)
        harness.clock.advance(by: BackgroundWorkTests.retention + 86_400)
        _ = try await harness.server.runBackgroundWork(
            olderThan: harness.clock.now.addingTimeInterval(-BackgroundWorkTests.retention))
        try check("the purge of its tombstone")
        #expect(try Self.usage(harness, account: "ann").counters == "2/\("tea".utf8.count + 500)")
        #expect(steps.count == 5)
    }
}
