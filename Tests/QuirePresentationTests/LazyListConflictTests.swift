import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// A conflict whose copy lies below the list's window: the editor still finds the copy, and
/// still says the open note is in conflict (the window holds the first rows only).
@MainActor
struct LazyListConflictTests {
    typealias Save = FakeNotesRepository.Save

    /// Five notes, newest first: "Note 0" (1 min ago) … "Note 4" (5 min ago).
    let notes = (0..<5).map { Note.sample("Note \($0)", "text \($0)", minutesAgo: Double($0 + 1)) }

    @Test func theDraftGoesOnInItsCopyBelowTheWindow() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()
        let note = notes[0]
        try await h.open(note.id)
        h.viewModel.edit(title: "Note 0", body: "duck eggs")
        await h.viewModel.flush()
        h.viewModel.edit(title: "Note 0", body: "duck eggs\nbread")
        // The engine settled the clash: the note took the other device's text, and this device's
        // saved text went to a copy dated older than every row of the window.
        let copy = Note.sample(
            "Note 0 (conflict copy)", "duck eggs", sync: .pending(changes: 1), minutesAgo: 30,
            conflictOf: note.id)

        h.notes.store(.sample("Note 0", "quail eggs", sync: .conflict, id: note.id), copy)

        try await h.waitUntil("the editor on the copy") { h.state.editor?.id == copy.id }
        #expect(!h.state.rows.contains { $0.id == copy.id }, "the copy is below the window")
        #expect(h.state.editor?.body == "duck eggs\nbread")
        await h.viewModel.flush()
        #expect(h.notes.saves.last == Save(id: copy.id, title: "Note 0 (conflict copy)", body: "duck eggs\nbread"))
        #expect(h.notes.note(note.id)?.body == "quail eggs")
    }

    /// The original was edited here since the copy was made: its row says "Not synced", and only
    /// the copy, far down the list, says there is a conflict to settle.
    let original = Note.sample("Groceries", "milk, bread", sync: .pending(changes: 1), minutesAgo: 0.5)
    var copy: Note {
        Note.sample(
            "Groceries (conflict copy)", "milk, eggs", sync: .pending(changes: 1), minutesAgo: 30,
            id: Self.copyID, conflictOf: original.id)
    }
    nonisolated static let copyID = NoteID()

    /// A harness with the original open and its copy below the window.
    private func openOriginal() async throws -> Harness {
        let h = Harness(notes: notes + [original, copy], pageSize: 2)
        try await h.start()
        try await h.open(original.id)
        return h
    }

    @Test func theOpenNoteIsInConflictWhenItsCopyIsBelowTheWindow() async throws {
        let h = try await openOriginal()
        defer { h.stop() }

        #expect(!h.state.rows.contains { $0.id == copy.id }, "the copy is below the window")
        #expect(h.state.openNoteInConflict)

        try await h.open(notes[0].id)
        #expect(!h.state.openNoteInConflict)
    }

    @Test func theConflictEndsWhenItsCopyBelowTheWindowGoes() async throws {
        let h = try await openOriginal()
        defer { h.stop() }
        #expect(h.state.openNoteInConflict)

        // Settled on the conflict screen, keeping the original: the copy goes, the original's
        // row does not change.
        h.notes.remove(copy.id)

        // The harness's long default timeout: the read runs through the cooperative pool, which
        // the parallel pass's other tests held for over 10 s once (CI, stop 34).
        try await h.waitUntil("the conflict gone") { !h.state.openNoteInConflict }
    }
}
