import Foundation
import QuireClient
import QuireDomain

/// Save latency at 10,000 notes: `NotesDatabase.saveNote` (note + pending change, one transaction,
/// `synchronous=FULL`) against the same two inserts by raw SQLite C calls on a file with the same
/// schema, rows and pragmas. Samples are interleaved (ours, raw, ours, ...) so machine noise hits
/// both sides alike. Then edits of existing notes with and without the history trigger
/// (`SaveBenchmark+HistoryTrigger.swift`).
enum SaveBenchmark {
    static let name = "save"

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let notes = context.sizes.notes
        let directory = try context.directory("save")
        progress("save: filling two databases with \(notes) notes")
        let ourFile = directory.appendingPathComponent("device.sqlite")
        try await LocalStoreFixture.deviceDatabase(at: ourFile, count: notes, corpus: context.corpus)
        let database = try NotesDatabase(fileURL: ourFile)
        let raw = try LocalStoreFixture.rawDatabase(
            at: directory.appendingPathComponent("raw.sqlite"), count: notes, corpus: context.corpus)

        let warmUp = 20
        var ours = Samples()
        var baseline = Samples()
        progress("save: \(context.sizes.saves) saves each side")
        for round in 0..<(warmUp + context.sizes.saves) {
            let text = context.corpus.note(notes + round)
            let (_, ourTime) = try await measureAsync {
                try await database.saveNote(id: NoteID(), title: text.title, body: text.body)
            }
            let (_, rawTime) = try measure {
                try raw.execute("BEGIN IMMEDIATE")
                try LocalStoreFixture.insertSave(
                    raw, id: UUID().uuidString.lowercased(), title: text.title, body: text.body)
                try raw.execute("COMMIT")
            }
            guard round >= warmUp else { continue }
            ours.append(ourTime)
            baseline.append(rawTime)
        }
        let count = Figure.count(notes)
        let edits = try await historyTriggerRows(context, with: database, file: ourFile, directory: directory)
        return [
            row("save at \(count) notes, median", ours.median, baseline.median),
            row("save at \(count) notes, p99", ours.p99, baseline.p99),
        ] + edits
    }

    private static func row(_ label: String, _ ours: Duration, _ raw: Duration) -> BenchRow {
        let ratio = ours.seconds / raw.seconds
        let met = ratio <= 1.5
        return BenchRow(
            benchmark: name, label: label, measured: Figure.milliseconds(ours),
            baseline: "\(Figure.milliseconds(raw)) raw C", ratio: ratio, target: "ratio ≤ 1.5",
            met: met,
            note: met
                ? nil
                : "the wrapper reads the note and its unsent change before writing (two extra "
                    + "indexed SELECTs) and hops onto the database actor; the fsync is the same")
    }
}
