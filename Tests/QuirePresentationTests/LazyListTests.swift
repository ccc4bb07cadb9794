import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The list opens on its first page and reads more only when asked (seed 000: "a lazy list"),
/// keeping its order and following changes in the window it shows.
@MainActor
struct LazyListTests {
    /// Five notes, newest first: "Note 0" (1 min ago) … "Note 4" (5 min ago).
    let notes = (0..<5).map { Note.sample("Note \($0)", "text \($0)", minutesAgo: Double($0 + 1)) }

    @Test func theListOpensOnItsFirstPageAndSaysMoreFollow() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }

        try await h.start()

        #expect(h.state.rows.map(\.title) == ["Note 0", "Note 1"])
        #expect(h.state.hasMoreRows)
        #expect(h.notes.windowSizes == [2])
        #expect(h.state.empty == nil)
    }

    @Test func showMoreLoadsTheNextPagesInOrderUntilTheEnd() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()

        h.viewModel.showMore()
        try await h.waitUntil("the second page") { h.state.rows.count == 4 }
        #expect(h.state.rows.map(\.title) == ["Note 0", "Note 1", "Note 2", "Note 3"])
        #expect(h.state.hasMoreRows)

        h.viewModel.showMore()
        try await h.waitUntil("the last page") { h.state.rows.count == 5 }
        #expect(h.state.rows.map(\.title) == notes.map(\.title))
        #expect(!h.state.hasMoreRows)
        #expect(h.notes.windowSizes == [2, 4, 6])

        h.viewModel.showMore()
        await h.expectStillHolds("nothing more to ask for") { h.notes.windowSizes == [2, 4, 6] }
    }

    @Test func aChangeElsewhereMovesItsNoteToTheTopOfTheWindow() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()

        h.notes.store(.sample("Note 4, edited", "text 4", minutesAgo: 0, id: notes[4].id))

        try await h.waitUntil("the edited note first") { h.state.rows.first?.title == "Note 4, edited" }
        #expect(h.state.rows.map(\.title) == ["Note 4, edited", "Note 0"])
        #expect(h.state.hasMoreRows)
        #expect(h.notes.windowSizes == [2], "a change re-reads the same window, no larger")
    }

    @Test func aDeleteInTheWindowPullsTheNextNoteUp() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()

        h.notes.remove(notes[0].id)

        try await h.waitUntil("the next note in") { h.state.rows.first?.title == "Note 1" }
        #expect(h.state.rows.map(\.title) == ["Note 1", "Note 2"])
    }

    @Test func theOpenNotePushedBelowTheWindowStaysOpen() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()
        try await h.open(notes[1].id)
        h.viewModel.edit(title: "Note 1", body: "text 1, typed")

        // Two newer saves elsewhere push the open note out of the first page.
        h.notes.store(
            .sample("Newer A", minutesAgo: 0.5), .sample("Newer B", minutesAgo: 0.2))

        try await h.waitUntil("the newer notes on top") { h.state.rows.first?.title == "Newer B" }
        #expect(!h.state.rows.contains { $0.id == notes[1].id })
        await h.expectStillHolds("the editor keeps its note and its typing") {
            h.state.editor?.id == notes[1].id && h.state.editor?.body == "text 1, typed"
        }
    }

    @Test func theOpenNoteDeletedBelowTheWindowCloses() async throws {
        let h = Harness(notes: notes, pageSize: 2)
        defer { h.stop() }
        try await h.start()
        try await h.open(notes[1].id)
        h.notes.store(.sample("Newer A", minutesAgo: 0.5), .sample("Newer B", minutesAgo: 0.2))
        try await h.waitUntil("the open note below the window") {
            !h.state.rows.contains { $0.id == notes[1].id }
        }

        h.notes.remove(notes[1].id)
        h.notes.store(.sample("Newer C", minutesAgo: 0.1))

        try await h.waitUntil("the editor closed") { h.state.editor == nil }
    }
}
