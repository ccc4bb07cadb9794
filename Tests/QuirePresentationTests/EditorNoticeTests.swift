import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The line above the editor when the note changed under it, and whether the open note has a
/// conflict to settle: the editor shows the words, it decides none of them.
@MainActor
struct EditorNoticeTests {
    nonisolated static let id = NoteID()

    @Test(
        arguments: [
            (EditorState(id: id, title: "", body: ""), nil),
            (EditorState(id: id, title: "", body: "", isDirty: true), nil),
            (
                EditorState(id: id, title: "", body: "", remoteChangePending: true),
                "Changed on another device: merged in when you stop typing."
            ),
            (
                EditorState(id: id, title: "", body: "", remoteChangePending: true, deletedElsewhere: true),
                "Deleted on another device. Your text here is kept: it comes back when saved."
            ),
            (
                EditorState(id: id, title: "", body: "", changedElsewhere: true),
                "Another device changed this note at the same time. Your text is kept here; theirs is in the original."
            ),
            (
                EditorState(id: id, title: "", body: "", isDirty: true, saveFailed: true, changedElsewhere: true),
                "Couldn't save this note. It is kept here and saved again when you type."
            ),
        ] as [(EditorState, String?)])
    func noticeSaysWhatHappenedToTheNote(editor: EditorState, notice: String?) async {
        #expect(editor.notice == notice)
    }

    @Test func theOpenNoteIsInConflictWhenItIsACopyOrHasOne() async throws {
        // The copy was just made here: it waits to be sent, so its row says "Not synced", yet the
        // conflict is there to settle, on the copy and on its original.
        let original = Note.sample("Groceries", "milk, bread", minutesAgo: 1)
        let copy = Note.sample(
            "Groceries (conflict copy)", "milk, eggs", sync: .pending(changes: 1), conflictOf: original.id)
        let plain = Note.sample("Plain", "text", minutesAgo: 5)
        let h = Harness(notes: [copy, original, plain])
        defer { h.stop() }
        try await h.start()
        #expect(!h.state.openNoteInConflict)

        try await h.open(copy.id)
        #expect(h.state.openNoteInConflict)

        try await h.open(original.id)
        #expect(h.state.openNoteInConflict)

        try await h.open(plain.id)
        #expect(!h.state.openNoteInConflict)
    }
}
