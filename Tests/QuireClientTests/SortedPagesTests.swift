import Foundation
import QuireDomain
import QuireSQLite
import Testing

@testable import QuireClient

/// The whole list by creation and by title, a page at a time, each read by its own index
/// (`quire ls --sort created|title`), in the order the list sorted in memory before.
@Suite struct SortedPagesTests {
    /// Every page of `sort`, `size` rows at a time.
    private func walk(_ database: NotesDatabase, _ sort: NoteListSort, size: Int) async throws -> [NoteRecord] {
        var rows: [NoteRecord] = []
        while true {
            let last = rows.last.map { NoteListPosition(updatedAt: $0.updatedAt, id: $0.id, title: $0.title) }
            let page = try await database.noteSummaryRows(sortedBy: sort, after: last, limit: size)
            rows += page
            if page.count < size { return rows }
        }
    }

    @Test func pagesByTitleFollowTheComparatorOnTrickyTitlesEqualTitlesNewestFirst() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let titles = [
            "", "Note 10", "note 9", "Note 09", "Note 9", "résumé", "Resume", "resume", "Résumé", "éclair",
            "Eclair", "zebra", "Zoë", "Zoe", "a b", "ab", "a-b", "_draft", "2 Trips", "10 Trips", "Straße",
            "Strasse", "Ångström", "angstrom", "", "Note 9",
        ]
        var saved: [(id: NoteID, title: String, order: Int)] = []
        for (order, title) in titles.enumerated() {
            let id = NoteID()
            try await database.saveNote(id: id, title: title, body: "body \(order)")
            saved.append((id, title, order))
            fixture.clock.advance()
        }
        // A rename after the keys were read: the note moves to its new title's place.
        _ = try await walk(database, .title, size: 4)
        let renamed = saved[11].id
        try await database.saveNote(id: renamed, title: "Aardvark", body: "body")
        fixture.clock.advance()
        saved[11] = (renamed, "Aardvark", titles.count)

        let expected = saved.sorted {
            let order = $0.title.localizedStandardCompare($1.title)
            return order == .orderedSame ? $0.order > $1.order : order == .orderedAscending
        }
        let paged = try await walk(database, .title, size: 4)
        #expect(paged.map(\.title) == expected.map(\.title))
        #expect(paged.map(\.id) == expected.map(\.id))
    }

    @Test func aSaveWritesTheKeyAndATitleChangedWithoutItIsKeyedBeforeTheNextPage() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (first, second) = (NoteID(), NoteID())
        try await database.saveNote(id: first, title: "Alpha", body: "")
        try await database.saveNote(id: second, title: "Bravo", body: "")
        let raw = try SQLiteConnection(path: fixture.fileURL.path, durability: .normal)
        let missing = "SELECT COUNT(*) FROM notes WHERE title_key IS NULL"
        #expect(try raw.queryFirst(missing) { $0.int(0) } == 0, "a save writes its key")

        // A write that knows nothing of the key (another path, an older process) renames Alpha.
        try raw.run("UPDATE notes SET title = 'Zulu' WHERE id = ?", first.description)
        #expect(try raw.queryFirst(missing) { $0.int(0) } == 1)

        let page = try await database.noteSummaryRows(sortedBy: .title, after: nil, limit: 10)
        #expect(page.map(\.title) == ["Bravo", "Zulu"])
        #expect(try raw.queryFirst(missing) { $0.int(0) } == 0)
    }

    @Test func aPageEndingOnANoteDeletedBeforeTheNextPageStillWalksOn() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        for index in 0..<6 {
            try await database.saveNote(id: NoteID(), title: "Note \(index)", body: "")
            fixture.clock.advance()
        }
        let repository = LocalNotesRepository(records: database)
        for sort in [NoteListSort.updated, .created, .title] {
            let first = try await repository.summaryPage(sortedBy: sort, after: nil, limit: 3)
            let all = try await repository.summaryPage(sortedBy: sort, after: nil, limit: 10)
            try await database.deleteNote(id: first[2].id)

            let next = try await repository.summaryPage(sortedBy: sort, after: first[2], limit: 3)

            #expect(next.map(\.id) == all.dropFirst(3).map(\.id), "\(sort)")
            try await database.saveNote(id: first[2].id, title: first[2].title, body: "back")
        }
    }

    @Test func pagesByCreationAreNewestFirstWhateverWasEditedSince() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        var ids: [NoteID] = []
        for index in 0..<9 {
            let id = NoteID()
            try await database.saveNote(id: id, title: "Note \(index)", body: "")
            ids.append(id)
            fixture.clock.advance()
        }
        try await database.saveNote(id: ids[0], title: "Note 0, edited", body: "")
        try await database.deleteNote(id: ids[4])

        let paged = try await walk(database, .created, size: 2)

        #expect(paged.map(\.id) == ids.reversed().filter { $0 != ids[4] })
        #expect(try await walk(database, .updated, size: 2).first?.id == ids[0])
    }

    @Test func eachOrderReadsByItsIndexWithoutSorting() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        let connection = try SQLiteConnection(path: fixture.fileURL.path, durability: .normal)
        let indexes: [(NoteListSort, [String])] = [
            (.updated, ["notes_list", "notes_by_recency"]), (.created, ["notes_by_creation"]),
            (.title, ["notes_by_title"]),
        ]
        for (sort, names) in indexes {
            for afterALastRow in [false, true] {
                let query = NotesDatabase.sortedPageQuery(sort, afterALastRow: afterALastRow)
                let bindings: [SQLiteBindable] =
                    afterALastRow ? [1.0, 1.0, Data([1]), "a", 500] : [500]
                // The outer query's own steps (parent 0); a per-note subquery may sort its few rows.
                let plan = try connection.query("EXPLAIN QUERY PLAN " + query, bindings: bindings) {
                    ($0.int(1), $0.text(3))
                }.filter { $0.0 == 0 }.map(\.1)
                #expect(plan.contains { step in names.contains { step.contains("INDEX \($0)") } }, "\(sort): \(plan)")
                #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(sort): \(plan)")
            }
        }
    }
}
