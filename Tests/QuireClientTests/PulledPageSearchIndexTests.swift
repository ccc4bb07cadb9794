import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import Testing

/// A pulled page is indexed for search in one statement before it commits (client migration 14),
/// and the index stays exactly the notes' text whatever the page holds.
struct PulledPageSearchIndexTests {
    let account = AccountID("account-1")

    func remote(_ id: NoteID, _ version: Int, _ title: String, _ body: String) -> RemoteNote {
        RemoteNote(
            id: id, version: version, updatedAt: Date(timeIntervalSinceReferenceDate: Double(version)),
            content: NoteContent(title: title, body: body), versionTag: "tag-\(version)")
    }

    /// FTS5's own check of an external-content index against its table: it throws when a row is
    /// missing, extra or indexed with other text.
    func checkIndex(_ fixture: DatabaseFixture) throws {
        let connection = try SQLiteConnection(path: fixture.fileURL.path)
        try connection.run("INSERT INTO notes_search (notes_search, rank) VALUES ('integrity-check', 1)")
    }

    @Test func aPageOfNewUpdatedAndDeletedNotesLeavesTheIndexExact() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let kept = NoteID()
        let edited = NoteID()
        let deleted = NoteID()
        try await database.apply(
            [
                remote(kept, 1, "Kept", "alpha"), remote(edited, 1, "Edited", "bravo"),
                remote(deleted, 1, "Gone", "charlie"),
            ],
            cursor: Cursor("c1"), account: account)

        let fresh = NoteID()
        let twice = NoteID()
        try await database.apply(
            [
                remote(edited, 2, "Edited", "  \n delta"), remote(fresh, 1, "Fresh", "echo"),
                RemoteNote(id: deleted, version: 2, updatedAt: Date(), content: nil, versionTag: "t"),
                remote(twice, 1, "Twice", "foxtrot"), remote(twice, 2, "Twice", "golf"),
            ], cursor: Cursor("c2"), account: account)

        #expect(try await database.search("alpha").map(\.id) == [kept])
        #expect(try await database.search("bravo").isEmpty)
        #expect(try await database.search("delta").map(\.id) == [edited])
        #expect(try await database.search("charlie").isEmpty)
        #expect(try await database.search("echo").map(\.id) == [fresh])
        #expect(try await database.search("foxtrot").isEmpty)
        #expect(try await database.search("golf").map(\.id) == [twice])
        try checkIndex(fixture)

        let connection = try SQLiteConnection(path: fixture.fileURL.path)
        func preview(_ id: NoteID) throws -> String? {
            try connection.queryFirst("SELECT preview FROM notes WHERE id = ?", id.description) { $0.text(0) }
        }
        #expect(try preview(edited) == "delta", "the preview skips leading blank lines, as the trigger's")
        #expect(try preview(twice) == "golf")
        #expect(try preview(deleted) == "")
    }

    @Test func aSaveAfterAPullIsIndexedAtOnce() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        try await database.apply([remote(NoteID(), 1, "Pulled", "hotel")], cursor: Cursor("c1"), account: account)

        let typed = NoteID()
        try await database.saveNote(id: typed, title: "Typed", body: "india")
        try await database.saveNote(id: typed, title: "Typed", body: "juliett")

        #expect(try await database.search("juliett").map(\.id) == [typed])
        #expect(try await database.search("india").isEmpty)
        try checkIndex(fixture)
    }

    @Test func anImportedBatchIsIndexedWithTheRest() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.saveNote(id: NoteID(), title: "Typed", body: "mike")
        let outcome = try await database.importNotes([
            NoteText(title: "One", body: "november"), NoteText(title: "Two", body: "oscar"),
            NoteText(title: "Typed", body: "mike"),
        ])

        #expect(outcome.imported.count == 2)
        #expect(try await database.search("november").map(\.id) == [outcome.imported[0]])
        #expect(try await database.search("mike").count == 1)
        try checkIndex(fixture)
    }

    @Test func aPulledNoteKeepsTheCreationTimeOfItsFirstArrival() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.apply([remote(id, 1, "Note", "kilo")], cursor: Cursor("c1"), account: account)
        try await database.apply([remote(id, 5, "Note", "lima")], cursor: Cursor("c2"), account: account)

        let connection = try SQLiteConnection(path: fixture.fileURL.path)
        let created = try connection.queryFirst("SELECT created_at FROM notes WHERE id = ?", id.description) {
            $0.double(0)
        }
        #expect(created == 1)
    }
}
