import Foundation
import QuireCrypto
import QuireDomain

/// What the benchmarks of one run share: sizes, the note corpus, a key, a scratch directory, and
/// the server seeded with the big note set (made on first use, reused by later benchmarks).
final class BenchContext {
    let options: BenchOptions
    let sizes: BenchSizes
    let corpus: NoteCorpus
    let codec = BenchCodec(key: SymmetricKey256.random())
    let scratch: URL
    private var seeded: SeededServer?

    struct SeededServer {
        var server: BenchServer
        var ids: [NoteID]
        var payloadBytes: Int
    }

    init(options: BenchOptions) throws {
        self.options = options
        sizes = options.quick ? .quick : .full
        corpus = try NoteCorpus.load()
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// A fresh directory under the run's scratch directory.
    func directory(_ name: String) throws -> URL {
        let url = scratch.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The server holding `sizes.notes` corpus notes of about 2 KB, seeded once per run.
    func seededServer() async throws -> SeededServer {
        if let seeded { return seeded }
        let server = try await BenchServer(directory: try directory("seeded-server"), codec: codec)
        progress("seeding the server with \(sizes.notes) notes of 2 KB")
        let (result, duration) = try await measureAsync {
            try await server.seed(count: sizes.notes, corpus: corpus)
        }
        progress("  seeded in \(Figure.seconds(duration))")
        let value = SeededServer(server: server, ids: result.ids, payloadBytes: result.payloadBytes)
        seeded = value
        return value
    }

    /// Stops the servers and removes the scratch directory.
    func finish() async {
        await seeded?.server.stop()
        seeded = nil
        try? FileManager.default.removeItem(at: scratch)
    }
}

/// The sizes of a run: the full sizes, or small ones for a smoke run.
struct BenchSizes {
    var notes: Int
    var saves: Int
    var coldOpens: Int
    var offlineChanges: Int
    var mergeRounds: Int
    var loadSeconds: Int
    var liveEdits: Int
    /// Appends, prepends and random inserts of the order-key benchmark (a tenth as many at one spot).
    var orderKeyOps: Int
    /// Items of the trip-sync benchmark's trip.
    var tripItems: Int
    /// Notes of the history-storage benchmark's account: written through the store, widened to
    /// for the last night, and of its no-pruning baseline.
    var historyWrittenNotes: Int
    var historyNotes: Int
    var historyBaselineNotes: Int
    /// Versions of the history-list benchmark's note, and its timed listings.
    var historyVersions: Int
    var historyRuns: Int

    static let full = BenchSizes(
        notes: 10_000, saves: 1_000, coldOpens: 15, offlineChanges: 1_000, mergeRounds: 200,
        loadSeconds: 10, liveEdits: 200, orderKeyOps: 10_000, tripItems: 500, historyWrittenNotes: 20,
        historyNotes: 1_000, historyBaselineNotes: 5, historyVersions: 500, historyRuns: 50)
    static let quick = BenchSizes(
        notes: 500, saves: 100, coldOpens: 3, offlineChanges: 100, mergeRounds: 20,
        loadSeconds: 2, liveEdits: 20, orderKeyOps: 2_000, tripItems: 100, historyWrittenNotes: 5,
        historyNotes: 50, historyBaselineNotes: 2, historyVersions: 100, historyRuns: 10)
}

/// A progress line on standard error, so the table on standard output stays clean.
func progress(_ line: String) {
    FileHandle.standardError.write(Data("quire-bench: \(line)\n".utf8))
}
