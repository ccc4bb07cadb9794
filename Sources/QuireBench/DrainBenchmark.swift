import Foundation
import QuireClient
import QuireDomain

/// Draining 1,000 offline changes: a device saved 1,000 new 2 KB notes with no network; one
/// `syncOnce` over loopback pushes them all (one PUT each, oldest first, each confirmed in the
/// device's database) and pulls the feed after. Baseline: the same 1,000 PUTs of the same sealed
/// payloads through the same API client, with no device database: the server's and the wire's share.
enum DrainBenchmark {
    static let name = "drain"

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let changes = context.sizes.offlineChanges
        let server = try await BenchServer(directory: try context.directory("drain-server"), codec: context.codec)
        do {
            let rows = try await measure(context, server: server, changes: changes)
            await server.stop()
            return rows
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func measure(_ context: BenchContext, server: BenchServer, changes: Int)
        async throws -> [BenchRow]
    {
        let file = try context.directory("drain-device").appendingPathComponent("notes.sqlite")
        progress("drain: a device saves \(changes) notes offline")
        try await LocalStoreFixture.deviceDatabase(at: file, count: changes, corpus: context.corpus)
        let database = try NotesDatabase(fileURL: file)
        let engine = NotesSyncEngine(
            records: database, api: server.apiClient(), codec: server.codec,
            account: AccountID("bench"), pageLimit: 500)

        // Warm the connection and the server's statements with a few PUTs outside the timing.
        let client = server.apiClient()
        let payloads = try (0..<changes).map { index -> (NoteID, String) in
            let id = NoteID()
            let text = context.corpus.note(index)
            return (id, try server.codec.seal(NoteContent(title: text.title, body: text.body), noteID: id))
        }
        for (_, payload) in payloads.prefix(5) {
            _ = try await client.put(NoteID(), payload: payload, baseVersion: nil, change: ChangeID())
        }

        progress("drain: syncing \(changes) pending changes")
        let (report, ours) = await measureAsync { await engine.syncOnce() }
        guard report.failure == nil, report.pushed == changes else {
            throw BenchFailure(
                "drain pushed \(report.pushed) of \(changes): \(String(describing: report.failure))")
        }
        progress("drain: baseline, \(changes) bare PUTs")
        let (_, baseline) = try await measureAsync {
            for (id, payload) in payloads {
                guard case .accepted = try await client.put(id, payload: payload, baseVersion: nil, change: ChangeID())
                else { throw BenchFailure("a baseline PUT was refused") }
            }
        }
        let met = ours < .milliseconds(1500)
        return [
            BenchRow(
                benchmark: name, label: "drain \(Figure.count(changes)) offline changes (push + pull)",
                measured: Figure.seconds(ours), baseline: "\(Figure.seconds(baseline)) bare PUTs",
                ratio: ours.seconds / baseline.seconds, target: "< 1.5 s", met: met,
                note: (report.received == 0
                    ? "no pull after the push: the device was the only writer, so its cursor moved past its own writes"
                    : "the pull after the push brought \(Figure.count(report.received)) notes")
                    + (met
                        ? ""
                        : "; per change, in series: the device freezes its payload (a commit), the "
                            + "server stores it (a commit, fsynced: FULL), the device completes it (a "
                            + "commit; the device's bookkeeping commits use synchronous=NORMAL, no fsync)"))
        ]
    }
}
