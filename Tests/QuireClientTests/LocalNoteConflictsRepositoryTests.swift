import Foundation
import QuireClient
import QuireDomain
import Testing

/// The conflict screen's reads and choice, from the database: a 409 settled for the server's text
/// (typed on the laptop) with this device's text in a linked copy.
struct LocalNoteConflictsRepositoryTests {
    /// "Groceries" synced at version 1, edited here, then settled against the laptop's version 2.
    private func settledConflict(_ database: NotesDatabase) async throws -> (original: NoteID, copy: NoteID) {
        let id = NoteID()
        try await database.saveSynced(id, title: "Groceries", body: "milk", version: 1)
        try await database.saveNote(id: id, title: "Groceries", body: "milk, eggs")
        let change = try #require(try await database.nextChange())
        let context = try await database.conflictContext(for: change.id)
        let copyID = NoteID()
        let laptop = DeviceLabel(id: "laptop-id", name: "laptop")
        try await database.settleConflict(
            ConflictSettlement(
                change: change.id,
                server: RemoteNote(
                    id: id, version: 2, updatedAt: Date(timeIntervalSinceReferenceDate: 5_000),
                    content: NoteContent(title: "Groceries", body: "milk, bread", typedOn: laptop)),
                outcome: .takeServer,
                copy: (copyID, NoteContent(title: "Groceries (conflict copy)", body: "milk, eggs", conflictOf: id)),
                expectedRevision: context.revision))
        return (id, copyID)
    }

    @Test func aCopyIsReadWithItsOriginalAndWhereEachWasTyped() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, copy) = try await settledConflict(database)
        let repository = LocalNoteConflictsRepository(database: database)

        for id in [copy, original] {
            let conflict = try #require(try await repository.conflict(involving: id))
            #expect(conflict.copy.note.id == copy)
            #expect(conflict.copy.note.body == "milk, eggs")
            #expect(conflict.copy.typedOn == nil)
            #expect(conflict.original?.note.id == original)
            #expect(conflict.original?.note.body == "milk, bread")
            #expect(conflict.original?.typedOn == "laptop")
        }
    }

    @Test func aNoteInNoConflictHasNone() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Plain", body: "text")
        let repository = LocalNoteConflictsRepository(database: database)

        #expect(try await repository.conflict(involving: id) == nil)
        #expect(try await repository.conflict(involving: NoteID()) == nil)
    }

    @Test func keepingMineGivesTheOriginalThisDevicesTextAndEndsTheConflict() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, copy) = try await settledConflict(database)
        let repository = LocalNoteConflictsRepository(database: database)

        try await repository.resolve(copy: copy, keep: .mine)

        #expect(try await database.noteRow(id: original)?.body == "milk, eggs")
        #expect(try await database.noteRow(id: copy) == nil)
        #expect(try await repository.conflict(involving: original) == nil)
    }
}
