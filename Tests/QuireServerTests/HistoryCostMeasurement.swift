import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The retention policy's real cost, measured on demand (`QUIRE_MEASURE_HISTORY=1`): notes edited
/// 30 times a day for 60 days, pruned daily as the server would, then the stored history's bytes
/// per note and the time of one pruning pass. Prints its figures; checks only that pruning bounds
/// the versions kept (issue 10, "tests and numbers"; the benchmark proper belongs in quire-bench).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["QUIRE_MEASURE_HISTORY"] != nil))
struct HistoryCostMeasurement {
    @Test(arguments: StoreKind.allCases) func storedHistoryPerNoteAfterSixtyDaysOfThirtyEditsADay(store: StoreKind)
        async throws
    {
        let notes = Int(ProcessInfo.processInfo.environment["QUIRE_MEASURE_NOTES"] ?? "") ?? 50
        var configuration = ServerHarness.configuration
        configuration.accessTokenTTL = 365 * 86_400
        let harness = try await ServerHarness(store: store, configuration: configuration)
        _ = try await harness.session("alice")
        let storage = harness.server.storage
        let account = try #require(try await storage.account(username: "alice")).id
        let ids = (0..<notes).map { _ in ServerHarness.uuid() }
        // A 1.5 KB note sealed: about 2 KB of base64.
        let payload = { (day: Int, edit: Int) in
            String(repeating: "x", count: 2_000 - 12) + String(format: "%06d%06d", day, edit)
        }
        var versions = [String: Int]()
        var pruneTimes: [Duration] = []
        let clock = ContinuousClock()
        for day in 0..<60 {
            for edit in 0..<30 {
                // 30 edits spread over the day's waking hours.
                harness.clock.advance(by: 1_800)
                let writes = ids.map { id in
                    (
                        write: NoteWrite.put(
                            noteID: id, payload: payload(day, edit),
                            base: versions[id].map { BaseVersion(number: $0, tag: nil) }),
                        idempotency: IdempotencyKey(key: UUID().uuidString, fingerprint: "f")
                    )
                }
                let results = try await storage.writeBatch(
                    writes, account: account, writer: nil, now: harness.clock.now, record: { _ in nil })
                for (id, result) in zip(ids, results) {
                    guard case .applied(.saved(let version, _, _)) = result else {
                        Issue.record("a write was not saved: \(result)")
                        return
                    }
                    versions[id] = version
                }
            }
            harness.clock.advance(by: 86_400 - 30 * 1_800)
            let started = clock.now
            try await harness.server.pruneHistory()
            pruneTimes.append(clock.now - started)
        }
        let history = try #require(harness.server.history)
        var kept = 0
        var bytes = 0
        for id in ids {
            let found = try #require(
                try await history.noteHistory(account: account, noteID: id, before: nil, limit: 500))
            kept += found.versions.count - 1
            bytes += found.versions.dropFirst().reduce(0) { $0 + $1.payload.utf8.count }
        }
        let started = clock.now
        try await harness.server.pruneHistory()
        let idlePass = clock.now - started
        print(
            """
            history cost [\(store)]: \(notes) notes x 30 edits/day x 60 days (1,800 versions each, 2 KB payloads):
              kept \(Double(kept) / Double(notes)) earlier versions per note, \(bytes / notes / 1024) KiB of payload per note
              daily prune pass: median \(pruneTimes.sorted()[pruneTimes.count / 2]), slowest \(pruneTimes.max()!); a pass with nothing to prune: \(idlePass)
            """)
        #expect(kept / notes < 90)
    }
}
