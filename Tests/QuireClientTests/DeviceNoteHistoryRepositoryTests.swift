import Foundation
import QuireClient
import QuireDomain
import Testing

/// The history and trash screens' repository over this device's database, signed out (the server's
/// part is NoteHistoryListing's and NoteTrashListing's, as the CLI's history tests run them).
struct DeviceNoteHistoryRepositoryTests {
    @Test func aNotesEarlierTextsAreListedAndOneRestoredAsAChangeThatSyncs() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = DeviceNoteHistoryRepository(database: database) { nil }
        let id = NoteID()
        try await database.saveSynced(id, title: "Essay", body: "one", version: 1)
        try await database.saveNote(id: id, title: "Essay", body: "two")
        try await database.saveNote(id: id, title: "Essay", body: "three")

        let history = try await repository.history(of: id)
        #expect(history.versions.map(\.text.body) == ["two", "one"])
        #expect(history.versions.map(\.reference).last == "1")
        #expect(history.versions.allSatisfy { $0.typedOn == nil })
        #expect(history.problem == nil)

        #expect(try await repository.restore(id, version: "1"))
        #expect(try await database.noteRow(id: id)?.body == "one")
        #expect(try await database.nextChange() != nil)
        let after = try await repository.history(of: id).versions
        #expect(Set(after.map(\.text.body)) == ["one", "two", "three"])  // "three", replaced, stays

        #expect(try await repository.restore(id, version: "1") == false)
        await #expect(throws: NoteHistoryError.noSuchVersion("9")) {
            _ = try await repository.restore(id, version: "9")
        }
    }

    @Test func aDeletedNoteIsInTheTrashUntilItIsRestored() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let repository = DeviceNoteHistoryRepository(database: database) { nil }
        let id = NoteID()
        try await database.saveSynced(id, title: "Trip", body: "pack the charger", version: 1)
        try await database.deleteNote(id: id)

        let trash = try await repository.trash()
        #expect(trash.notes.map(\.id) == [id])
        #expect(trash.notes.first?.text == NoteText(title: "Trip", body: "pack the charger"))
        #expect(trash.notes.first?.deleteUnsent == true)

        try await repository.restoreFromTrash(id)
        #expect(try await database.noteRow(id: id)?.body == "pack the charger")
        #expect(try await repository.trash().notes.isEmpty)
        await #expect(throws: NoteHistoryError.notInTrash) { try await repository.restoreFromTrash(id) }
    }
}
