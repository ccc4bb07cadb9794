import Foundation

/// The retention policy's real cost (issue 10): one account's notes on the server's SQLite store,
/// each edited 30 times a day for 60 days with the server's nightly pruning (default retention:
/// every version for 24 hours, one a day to 30 days, one a week to a year, 256 MiB per account),
/// then the history's pages per note (`dbstat`), the versions each note keeps, and the time of a
/// nightly pruning pass over the whole account.
///
/// Scaled: 1.8 M writes through the store take over an hour on this machine, so
/// `historyWrittenNotes` notes go through the write path for all 60 days, and the last night
/// copies them (rows and versions, real schema) to `historyNotes` before its pass
/// (``HistorySimulation``). Baseline in the same run: the same calendar with no pruning, every
/// version kept, on `historyBaselineNotes` notes (a note's history is its own rows, so bytes per
/// note do not depend on how many notes share the file).
enum HistoryStorageBenchmark {
    static let name = "history-storage"
    static let editsPerDay = 30
    static let days = 60
    static let capBytes = 256 * 1024 * 1024

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let sizes = context.sizes
        progress(
            "history-storage: \(sizes.historyWrittenNotes) notes × \(editsPerDay) edits a day × \(days) days, "
                + "pruned nightly, widened to \(sizes.historyNotes) for the last night")
        let pruned = try await simulate(
            HistorySimulation(
                notes: sizes.historyWrittenNotes, days: days, editsPerDay: editsPerDay, prunes: true,
                widenTo: sizes.historyNotes), context: context, label: "pruned")
        progress("history-storage: baseline, \(sizes.historyBaselineNotes) notes on the same calendar, nothing pruned")
        let kept = try await simulate(
            HistorySimulation(
                notes: sizes.historyBaselineNotes, days: days, editsPerDay: editsPerDay, prunes: false),
            context: context, label: "baseline")
        return rows(pruned: pruned, kept: kept, written: sizes.historyWrittenNotes)
    }

    private static func simulate(_ simulation: HistorySimulation, context: BenchContext, label: String)
        async throws -> HistorySimulation.Result
    {
        let directory = try context.directory("history-\(label)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await simulation.run(
            directory: directory, corpus: context.corpus, codec: context.codec, label: label)
    }

    private static func rows(pruned: HistorySimulation.Result, kept: HistorySimulation.Result, written: Int)
        -> [BenchRow]
    {
        let footprint = pruned.footprint
        let perNote = footprint.bytes / pruned.notes
        let baselinePerNote = kept.footprint.bytes / kept.notes
        let counts = footprint.versionsPerNote
        let median = counts.isEmpty ? 0 : counts[counts.count / 2]
        let size = "\(Figure.count(pruned.notes)) notes × \(editsPerDay) edits/day × \(days) days"
        let every = days * editsPerDay - 1
        let lastPass = pruned.lastPass ?? .zero
        return [
            BenchRow(
                benchmark: name, label: "server history per note after pruning, \(size)",
                measured: Figure.bytes(perNote), baseline: "\(Figure.bytes(baselinePerNote)) every version kept",
                ratio: Double(perNote) / Double(baselinePerNote),
                note: "pages of note_versions and its age index (dbstat, \(footprint.pageSize)-byte pages): "
                    + "\(Figure.count(footprint.tablePages)) + \(Figure.count(footprint.indexPages)) pages for "
                    + "\(Figure.count(footprint.versions)) versions holding \(Figure.bytes(footprint.payloadBytes / pruned.notes)) "
                    + "of sealed payload per note (\(footprint.payloadBytes / max(footprint.versions, 1)) B a version); "
                    + "\(Figure.count(footprint.freePages)) free pages in the file after the last pass (reused by "
                    + "later writes). Baseline: \(Figure.count(kept.notes)) notes, \(Figure.count(kept.footprint.versions)) "
                    + "versions, \(Figure.bytes(kept.footprint.payloadBytes / kept.notes)) of payload per note"),
            BenchRow(
                benchmark: name, label: "versions kept per note after pruning, \(size)", measured: "\(median)",
                baseline: "\(Figure.count(every)) every version kept", ratio: Double(median) / Double(every),
                note: "median; fewest \(counts.first ?? 0), most \(counts.last ?? 0). Just before the last pass "
                    + "the account held \(Figure.bytes(pruned.payloadBeforeLastPass)) of payload (cap "
                    + "\(Figure.bytes(capBytes)), counted in payload characters)"),
            BenchRow(
                benchmark: name, label: "one nightly pruning pass over \(Figure.count(pruned.notes)) notes",
                measured: Figure.milliseconds(lastPass),
                baseline: pruned.idlePass.map { "\(Figure.milliseconds($0)) pass with nothing to prune" } ?? "-",
                ratio: pruned.idlePass.map { lastPass.seconds / $0.seconds },
                note: "the last night's NotesServer.pruneHistory (32 notes a step) on the widened account, "
                    + "\(Figure.count(pruned.pruned)) versions pruned over the 60 nights. Written through "
                    + "SQLiteServerStorage.writeBatch: \(written) notes, one edit of each a transaction, "
                    + "\(Figure.count(pruned.writes)) writes in \(Figure.seconds(pruned.writeTime)); their "
                    + "\(pruned.nightlyPasses.count) earlier nightly passes: median "
                    + "\(Figure.milliseconds(pruned.nightlyPasses.median)), slowest "
                    + "\(Figure.milliseconds(pruned.nightlyPasses.percentile(1)))"),
        ]
    }
}
