import Foundation
import QuireClient
import QuireDomain
import Testing

/// A save from an editor that read the note first (issue 9, defect 13): if the note changed while
/// it was being edited (a pull, another process), nothing either side typed is lost.
struct NotesDatabaseEditedFromTests {
    @Test func anEditOfANoteThatChangedMeanwhileMergesWithTheChange() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        let opened = NoteText(title: "List", body: "milk\neggs\nbread")
        try await database.saveSynced(id, title: opened.title, body: opened.body, version: 1)
        // While the editor is open, another device's edit of the last line arrives.
        try await database.saveNote(id: id, title: "List", body: "milk\neggs\nrye bread")

        try await database.saveNote(
            id: id, title: "List", body: "oat milk\neggs\nbread", editedFrom: opened)

        #expect(try await database.noteRow(id: id)?.body == "oat milk\neggs\nrye bread")
        #expect(try await database.readNoteRows().count == 1)
    }

    @Test func aClashingEditKeepsTheNewTextAndBecomesALinkedCopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        let opened = NoteText(title: "Plan", body: "meet at noon")
        try await database.saveSynced(id, title: opened.title, body: opened.body, version: 1)
        try await database.saveNote(id: id, title: "Plan", body: "meet at one")

        try await database.saveNote(
            id: id, title: "Plan", body: "meet at two", editedFrom: opened)

        let rows = try await database.readNoteRows()
        #expect(rows.first { $0.id == id }?.body == "meet at one")
        let copy = try #require(rows.first { $0.conflictOf == id })
        #expect(copy.body == "meet at two")
        #expect(copy.pendingCount == 1)
        #expect(try await database.readStatus().conflictCount == 1)

        // Read by the conflict index wherever the copy sits in the list; a deleted copy is none.
        for index in 0..<30 {
            fixture.clock.advance()
            try await database.saveNote(id: NoteID(), title: "Newer \(index)", body: "")
        }
        #expect(try await database.conflictCopyRows(of: id).map(\.id) == [copy.id])
        #expect(try await LocalNotesRepository(records: database).conflictCopies(of: id).map(\.body) == ["meet at two"])
        #expect(try await database.conflictCopyRows(of: copy.id).isEmpty)
        try await database.deleteNote(id: copy.id)
        #expect(try await database.conflictCopyRows(of: id).isEmpty)
    }

    @Test func anEditOfAnUnchangedNoteIsAnOrdinarySave() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        let opened = NoteText(title: "T", body: "a")
        try await database.saveSynced(id, title: opened.title, body: opened.body, version: 1)

        try await database.saveNote(id: id, title: "T", body: "b", editedFrom: opened)

        #expect(try await database.noteRow(id: id)?.body == "b")
        #expect(try await database.readNoteRows().count == 1)
    }
}
