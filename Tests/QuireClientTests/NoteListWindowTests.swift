import Foundation
import QuireDomain
import QuireSQLite
import Testing

@testable import QuireClient

/// The list a screen at a time: a window of the first rows that follows commits, and pages that
/// walk the whole list in its order, both read by the list index (seed 000: "a lazy list").
@Suite struct NoteListWindowTests {
    /// Saves `count` notes "Note 0" … oldest first, a second apart: "Note \(count - 1)" is newest.
    private func saveNotes(_ count: Int, in fixture: DatabaseFixture, _ database: NotesDatabase)
        async throws -> [NoteID]
    {
        var ids: [NoteID] = []
        for index in 0..<count {
            let id = NoteID()
            try await database.saveNote(id: id, title: "Note \(index)", body: "text \(index)")
            ids.append(id)
            fixture.clock.advance()
        }
        return ids
    }

    @Test func theWindowHoldsTheNewestRowsAndSaysMoreFollow() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let ids = try await saveNotes(5, in: fixture, database)
        let repository = LocalNotesRepository(records: database)

        let windows = await StreamRecorder.start(repository.summaries(first: 2))
        let first = try await windows.waitFor { !$0.summaries.isEmpty }
        #expect(first.summaries.map(\.title) == ["Note 4", "Note 3"])
        #expect(first.hasMore)

        // An edit of the oldest note moves it to the top of the window.
        try await database.saveNote(id: ids[0], title: "Note 0, edited", body: "text 0")
        let edited = try await windows.waitFor { $0.summaries.first?.title == "Note 0, edited" }
        #expect(edited.summaries.map(\.title) == ["Note 0, edited", "Note 4"])
        #expect(edited.hasMore)
        await windows.stop()

        let whole = await StreamRecorder.start(repository.summaries(first: 5))
        let all = try await whole.waitFor { !$0.summaries.isEmpty }
        #expect(all.summaries.count == 5)
        #expect(!all.hasMore, "exactly as many notes as asked for: nothing follows")
        await whole.stop()
    }

    @Test func pagesWalkTheWholeListInItsOrderAcrossEqualTimes() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        // Seven notes, four of them saved at the same instant: the id breaks the tie.
        _ = try await saveNotes(3, in: fixture, database)
        for index in 3..<7 {
            try await database.saveNote(id: NoteID(), title: "Note \(index)", body: "")
        }
        let repository = LocalNotesRepository(records: database)
        var whole: [NoteSummary] = []
        for await list in repository.summaries() {
            whole = list
            break
        }

        var paged: [NoteSummary] = []
        var last: NoteSummary?
        while true {
            let page = try await repository.summaryPage(after: last, limit: 3)
            paged += page
            guard let end = page.last, page.count == 3 else { break }
            last = end
        }

        #expect(paged.map(\.id) == whole.map(\.id))
        #expect(paged.count == 7)
    }

    @Test func theWindowAndThePagesReadInTheListIndexsOrderWithoutSorting() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        let connection = try SQLiteConnection(path: fixture.fileURL.path, durability: .normal)
        let select = NotesDatabase.noteRowsSelect(body: "n.preview")
        let queries = [
            select + " WHERE n.deleted = 0" + NotesDatabase.listOrder + " LIMIT 101",
            select + " WHERE n.deleted = 0 AND n.updated_at <= 1 AND (n.updated_at < 1 OR n.id > 'a')"
                + NotesDatabase.listOrder + " LIMIT 500",
        ]
        for query in queries {
            // The outer query's own steps (parent 0); a per-note subquery may sort its few rows.
            let plan = try connection.query("EXPLAIN QUERY PLAN " + query) { ($0.int(1), $0.text(3)) }
                .filter { $0.0 == 0 }.map(\.1)
            #expect(
                plan.contains { $0.contains("INDEX notes_by_recency") || $0.contains("INDEX notes_list") },
                "plan: \(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
        }
    }
}
