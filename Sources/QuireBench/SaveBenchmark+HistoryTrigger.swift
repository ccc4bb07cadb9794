import Foundation
import QuireClient
import QuireDomain

// MARK: - What the history trigger adds to a save (issue 10)

extension SaveBenchmark {
    /// How many notes the edits go round: each is edited about `saves / editedNotes` times, so
    /// its history fills to ``NotesSchema/textsKeptPerNote`` and the trigger prunes on every
    /// later edit, as on a note someone keeps working on.
    static let editedNotes = 20

    /// Edits of existing notes (a save that replaces a text, so `notes_history_on_update` keeps
    /// the text it replaced and prunes the note's history to its bound) through `with`, open on
    /// `file`, beside the same edits on a copy of the file with that trigger dropped: interleaved,
    /// one edit each side in turn, so machine noise hits both alike. Nothing may write to `file`
    /// while it is copied.
    static func historyTriggerRows(
        _ context: BenchContext, with: NotesDatabase, file: URL, directory: URL
    ) async throws -> [BenchRow] {
        let copy = directory.appendingPathComponent("no-history-trigger.sqlite")
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: file.path + suffix) {
            try FileManager.default.copyItem(atPath: file.path + suffix, toPath: copy.path + suffix)
        }
        try RawSQLite(path: copy.path).execute("DROP TRIGGER notes_history_on_update")
        let without = try NotesDatabase(fileURL: copy)
        let withIDs = try await with.readNoteRows().prefix(editedNotes).map(\.id)
        let withoutIDs = try await without.readNoteRows().prefix(editedNotes).map(\.id)

        let warmUp = 20
        var ours = Samples()
        var baseline = Samples()
        progress("save: \(context.sizes.saves) edits each side, with and without the history trigger")
        for round in 0..<(warmUp + context.sizes.saves) {
            let slot = round % editedNotes
            let text = context.corpus.note(slot)
            let body = NoteCorpus.edited(text.body, round: round)
            let (_, withTime) = try await measureAsync {
                try await with.saveNote(id: withIDs[slot], title: text.title, body: body)
            }
            let (_, withoutTime) = try await measureAsync {
                try await without.saveNote(id: withoutIDs[slot], title: text.title, body: body)
            }
            guard round >= warmUp else { continue }
            ours.append(withTime)
            baseline.append(withoutTime)
        }
        let kept = try await with.localHistory(of: withIDs[0]).count - 1
        guard kept == NotesSchema.textsKeptPerNote else {
            throw BenchFailure("save: an edited note kept \(kept) earlier texts, not \(NotesSchema.textsKeptPerNote)")
        }
        let label = "edit of a note at \(Figure.count(context.sizes.notes)) notes, history trigger on"
        let note =
            "\(editedNotes) notes edited in turn (each about \(context.sizes.saves / editedNotes) times: its "
            + "history full at \(NotesSchema.textsKeptPerNote), so most edits also prune one); baseline: the same "
            + "edits on a copy of the file without notes_history_on_update, interleaved"
        return [
            historyRow("\(label), median", ours.median, baseline.median, note: note),
            historyRow("\(label), p99", ours.p99, baseline.p99, note: nil),
        ]
    }

    private static func historyRow(_ label: String, _ ours: Duration, _ without: Duration, note: String?) -> BenchRow {
        BenchRow(
            benchmark: name, label: label, measured: Figure.milliseconds(ours),
            baseline: "\(Figure.milliseconds(without)) without the trigger", ratio: ours.seconds / without.seconds,
            note: note)
    }
}
