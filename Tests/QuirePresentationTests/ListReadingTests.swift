import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The list watches summaries; only the note open in the editor is read whole, by id. A list of
/// 10,000 notes is 20 MB of bodies: re-reading them on every commit would stall the screen.
@MainActor
struct ListReadingTests {
    let note = Note.sample("Groceries", "eggs", minutesAgo: 5)
    let other = Note.sample("Trip", "tickets", minutesAgo: 10)

    @Test func theListReadsNoWholeBody() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }

        try await h.start()

        #expect(h.state.rows.map(\.title) == ["Groceries", "Trip"])
        #expect(h.state.rows.map(\.preview) == ["eggs", "tickets"])
        #expect(h.notes.bodyReads == 0)
    }

    @Test func selectingANoteReadsThatNoteAloneInFull() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()

        h.viewModel.select(note.id)

        try await h.waitUntil("the note open") { h.state.editor?.id == note.id }
        #expect(h.state.editor?.body == "eggs")
        #expect(h.notes.noteReads == [note.id])
        #expect(h.notes.bodyReads == 1)
    }

    @Test func aCommitThatChangesAnotherNoteReadsNoBody() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()
        try await h.open(note.id)
        let before = h.notes.bodyReads

        h.notes.store(.sample("Trip (Sat)", "tickets\npassports", minutesAgo: 1, id: other.id))

        try await h.waitUntil("the other row") { h.state.rows.first?.title == "Trip (Sat)" }
        await h.expectStillHolds("no body read again") { h.notes.bodyReads == before }
        #expect(h.notes.noteReads == [note.id])
        #expect(h.state.editor?.body == "eggs")
    }

    @Test func theOpenNoteIsReadAgainWhenItChanges() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()
        try await h.open(note.id)

        h.notes.store(.sample("Groceries", "eggs\nflour", id: note.id))

        try await h.waitUntil("the new text") { h.state.editor?.body == "eggs\nflour" }
        #expect(h.notes.noteReads == [note.id, note.id])
    }

    @Test func onlyTheLatestSelectionOpens() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()

        h.viewModel.select(note.id)
        h.viewModel.select(other.id)

        try await h.waitUntil("the second note open") { h.state.editor?.id == other.id }
        await h.expectStillHolds("the first never replaces it") { h.state.editor?.id == other.id }
        #expect(h.state.editor?.body == "tickets")
    }

    @Test func aFailedOpenSaysSoAndTheNextSelectTriesAgain() async throws {
        let h = Harness(notes: [note, other])
        defer { h.stop() }
        try await h.start()
        h.notes.failNextReadOnce()

        h.viewModel.select(note.id)

        try await h.waitUntil("the failure shown") { h.state.readProblem != nil }
        #expect(h.state.readProblem == "Couldn't open the note: disk I/O error")
        #expect(h.state.editor == nil)
        #expect(h.state.rows.count == 2)
        try await h.open(note.id)
        #expect(h.state.readProblem == nil)
        #expect(h.state.editor?.body == "eggs")
    }
}
