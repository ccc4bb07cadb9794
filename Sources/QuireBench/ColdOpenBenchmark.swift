import Foundation
import QuireClient
import QuireDomain

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// Cold open to the first list emission at 10,000 notes: open `NotesDatabase` (connection, pragmas,
/// migration check), subscribe to `LocalNotesRepository.summaries()` (the list's stream: titles and
/// a preview, not whole bodies), and wait for the first value. Baseline: raw C open with the same
/// pragmas plus the full-body list query (`notes()`), every column read, which is what the list
/// read before summaries; a second row times our own full-body stream beside it.
///
/// "Cold" means a new process-level connection; the OS page cache is warm (dropping it would need
/// root and disturb the machine), so a first launch after a reboot will be slower.
enum ColdOpenBenchmark {
    static let name = "cold-open"

    /// The full-body list query of `NotesDatabase.readNoteRows`, copied for the raw C baseline.
    static let listQuery = """
        SELECT n.id, n.title, n.body, n.updated_at, n.conflict_of, n.version,
               (SELECT COUNT(*) FROM pending_changes p WHERE p.note_id = n.id),
               EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = n.id AND p.refused = 1),
               n.conflict_of IS NOT NULL
                 OR EXISTS (
                    SELECT 1 FROM notes c INDEXED BY notes_by_conflict_of
                    WHERE c.conflict_of IS NOT NULL AND c.conflict_of = n.id AND c.deleted = 0)
        FROM notes n WHERE n.deleted = 0 ORDER BY n.updated_at DESC, n.id
        """

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let notes = context.sizes.notes
        let directory = try context.directory("cold-open")
        let file = directory.appendingPathComponent("device.sqlite")
        progress("cold-open: filling a database with \(notes) notes")
        try await LocalStoreFixture.deviceDatabase(at: file, count: notes, corpus: context.corpus)

        var ours = Samples()
        var fullBodies = Samples()
        var baseline = Samples()
        var listed = 0
        for round in 0..<(1 + context.sizes.coldOpens) {
            let (count, ourTime) = try await measureAsync { try await firstEmission(file) }
            let (_, fullTime) = try await measureAsync { try await firstFullEmission(file) }
            let (_, rawTime) = try measure {
                let raw = try RawSQLite(path: file.path)
                return try raw.readAll(listQuery)
            }
            guard round > 0 else { continue }
            listed = count
            ours.append(ourTime)
            fullBodies.append(fullTime)
            baseline.append(rawTime)
        }
        guard listed == notes else {
            throw BenchFailure("cold-open listed \(listed) notes, expected \(notes)")
        }
        let met = ours.median < .milliseconds(50)
        return [
            BenchRow(
                benchmark: name, label: "cold open to first list at \(Figure.count(notes)) notes, median",
                measured: Figure.milliseconds(ours.median),
                baseline: "\(Figure.milliseconds(baseline.median)) raw C, whole bodies",
                ratio: ours.median.seconds / baseline.median.seconds, target: "< 50 ms", met: met,
                note: "the list's stream of summaries: SQLite cuts each body to a "
                    + "\(NoteSummary.previewLength)-character preview, so 10,000 whole bodies "
                    + "(\(Figure.count(notes)) × 2 KB) are never copied out"),
            BenchRow(
                benchmark: name,
                label: "cold open to first full-body list at \(Figure.count(notes)) notes, median",
                measured: Figure.milliseconds(fullBodies.median),
                baseline: "\(Figure.milliseconds(baseline.median)) raw C, same query",
                ratio: fullBodies.median.seconds / baseline.median.seconds, target: "-", met: nil,
                note: "notes() with whole bodies, for scripts and sync (`quire ls --json`); "
                    + "not what a list screen reads"),
        ]
    }

    /// Opens the database and returns how many notes the list's first emission held.
    private static func firstEmission(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        for await summaries in repository.summaries() { return summaries.count }
        throw BenchFailure("the summaries stream finished without a value")
    }

    /// The same with `notes()`: every whole body.
    private static func firstFullEmission(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        for await notes in repository.notes() { return notes.count }
        throw BenchFailure("the notes stream finished without a value")
    }
}
