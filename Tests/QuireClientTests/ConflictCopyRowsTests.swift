import Foundation
import QuireDomain
import QuireSQLite
import Testing

@testable import QuireClient

/// A note's conflict copies, read by the conflict index wherever they sit in the list: what the
/// editor, the conflict screen and `quire diff`/`resolve` ask for.
@Suite struct ConflictCopyRowsTests {
    @Test func theCopiesOfANoteAreReadWhereverTheyAreInTheList() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        let opened = NoteText(title: "Plan", body: "meet at noon")
        try await database.saveSynced(id, title: opened.title, body: opened.body, version: 1)
        try await database.saveNote(id: id, title: "Plan", body: "meet at one")
        fixture.clock.advance()
        try await database.saveNote(id: id, title: "Plan", body: "meet at two", editedFrom: opened)
        // Newer notes push the copy far below a window of the first rows.
        for index in 0..<30 {
            fixture.clock.advance()
            try await database.saveNote(id: NoteID(), title: "Note \(index)", body: "")
        }
        let other = NoteID()
        try await database.saveNote(id: other, title: "Other", body: "")

        let copies = try await database.conflictCopyRows(of: id)

        #expect(copies.map(\.body) == ["meet at two"])
        #expect(copies.allSatisfy { $0.conflictOf == id })
        #expect(try await database.conflictCopyRows(of: other).isEmpty)
        let repository = LocalNotesRepository(records: database)
        #expect(try await repository.conflictCopies(of: id).map(\.body) == ["meet at two"])

        try await database.deleteNote(id: copies[0].id)
        #expect(try await database.conflictCopyRows(of: id).isEmpty, "a deleted copy is no copy")
    }

    @Test func theCopiesAreReadByTheConflictIndex() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        let connection = try SQLiteConnection(path: fixture.fileURL.path, durability: .normal)
        let plan = try connection.query(
            "EXPLAIN QUERY PLAN " + NotesDatabase.conflictCopiesQuery, bindings: ["a"]
        ) { ($0.int(1), $0.text(3)) }
        .filter { $0.0 == 0 }.map(\.1)

        #expect(plan.contains { $0.contains("INDEX notes_by_conflict_of") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("SCAN n") }, "plan: \(plan)")
    }
}
