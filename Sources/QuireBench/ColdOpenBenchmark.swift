#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif
import Foundation
import QuireClient
import QuireDomain

/// Cold open to the first list emission at 10,000 notes: open `NotesDatabase` (connection, pragmas,
/// migration check), subscribe to `LocalNotesRepository.notes()`, and wait for the first value.
/// Baseline: raw C open with the same pragmas plus the same list query, every column read.
///
/// "Cold" means a new process-level connection; the OS page cache is warm (dropping it would need
/// root and disturb the machine), so a first launch after a reboot will be slower.
enum ColdOpenBenchmark {
    static let name = "cold-open"

    /// The list query of `NotesDatabase.readNoteRows`, copied so the baseline does the same work.
    static let listQuery = """
        SELECT n.id, n.title, n.body, n.updated_at, n.conflict_of, n.version,
               (SELECT COUNT(*) FROM pending_changes p WHERE p.note_id = n.id),
               EXISTS (SELECT 1 FROM pending_changes p WHERE p.note_id = n.id AND p.refused = 1),
               n.conflict_of IS NOT NULL
                 OR EXISTS (SELECT 1 FROM notes c WHERE c.conflict_of = n.id AND c.deleted = 0)
        FROM notes n WHERE n.deleted = 0 ORDER BY n.updated_at DESC, n.id
        """

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let notes = context.sizes.notes
        let directory = try context.directory("cold-open")
        let file = directory.appendingPathComponent("device.sqlite")
        progress("cold-open: filling a database with \(notes) notes")
        try await LocalStoreFixture.deviceDatabase(at: file, count: notes, corpus: context.corpus)

        var ours = Samples()
        var baseline = Samples()
        var listed = 0
        for round in 0..<(1 + context.sizes.coldOpens) {
            let (count, ourTime) = try await measureAsync { try await firstEmission(file) }
            let (_, rawTime) = try measure {
                let raw = try RawSQLite(path: file.path)
                return try raw.readAll(listQuery)
            }
            guard round > 0 else { continue }
            listed = count
            ours.append(ourTime)
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
                baseline: "\(Figure.milliseconds(baseline.median)) raw C",
                ratio: ours.median.seconds / baseline.median.seconds, target: "< 50 ms", met: met,
                note: met
                    ? nil
                    : "the first emission reads every live note with its whole body "
                        + "(\(Figure.count(notes)) × 2 KB) and builds a NoteRecord and a Note for each; "
                        + "a list that read only titles and a preview would cut this")
        ]
    }

    /// Opens the database and returns how many notes the list's first emission held.
    private static func firstEmission(_ file: URL) async throws -> Int {
        let database = try NotesDatabase(fileURL: file)
        let repository = LocalNotesRepository(records: database)
        for await notes in repository.notes() { return notes.count }
        throw BenchFailure("the notes stream finished without a value")
    }
}
