import Foundation
import QuireClient
import QuireDomain
import Testing

/// Conflicts: the engine settling a 409, and the user resolving a conflict copy.
struct NotesDatabaseConflictTests {
    /// A note synced at version 1 as "Groceries / milk", then edited here to "milk, eggs", with
    /// that edit in flight: the state a 409 finds.
    private func noteWithEditInFlight(_ database: NotesDatabase) async throws -> (
        NoteID, SentChange
    ) {
        let id = NoteID()
        try await database.saveSynced(id, title: "Groceries", body: "milk", version: 1)
        try await database.saveNote(id: id, title: "Groceries", body: "milk, eggs")
        return (id, try #require(try await database.nextChange()))
    }

    private func server(_ id: NoteID, version: Int, body: String?) -> RemoteNote {
        RemoteNote(
            id: id, version: version, updatedAt: Date(timeIntervalSinceReferenceDate: 5_000),
            content: body.map { NoteContent(title: "Groceries", body: $0) })
    }

    @Test func conflictContextHoldsBaseLocalTextAndRevision() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        try await database.saveNote(id: id, title: "Groceries", body: "milk, eggs, tea")

        let context = try await database.conflictContext(for: change.id)

        #expect(context.base == NoteText(title: "Groceries", body: "milk"))
        #expect(context.local == .edited(NoteText(title: "Groceries", body: "milk, eggs, tea")))
        #expect(context.conflictOf == nil)
        try await database.deleteNote(id: id)
        let afterDelete = try await database.conflictContext(for: change.id)
        #expect(afterDelete.local == .deleted)
        #expect(afterDelete.revision > context.revision)
    }

    @Test func takeServerWithACopyKeepsBothTexts() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        let context = try await database.conflictContext(for: change.id)
        let copyID = NoteID()

        try await database.settleConflict(
            ConflictSettlement(
                change: change.id, server: server(id, version: 2, body: "milk, bread"),
                outcome: .takeServer,
                copy: (
                    copyID,
                    NoteContent(
                        title: "Groceries (conflict copy)", body: "milk, eggs", conflictOf: id)
                ), expectedRevision: context.revision))

        let original = try #require(try await database.noteRow(id: id))
        #expect(original.body == "milk, bread")
        #expect(original.version == 2)
        #expect(original.pendingCount == 0)
        #expect(original.inConflict)
        let copy = try #require(try await database.noteRow(id: copyID))
        #expect(copy.body == "milk, eggs")
        #expect(copy.conflictOf == id)
        #expect(copy.version == 0)
        let queued = try #require(try await database.nextChange())
        #expect(queued.noteID == copyID)
        #expect(
            queued.operation
                == .put(
                    NoteContent(
                        title: "Groceries (conflict copy)", body: "milk, eggs", conflictOf: id)))
        #expect(queued.baseVersion == nil)
        #expect(try await database.readStatus().conflictCount == 1)
    }

    @Test func theSameConflictMetTwiceMakesOneCopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        let copyText = NoteContent(title: "Groceries (conflict copy)", body: "milk, eggs", conflictOf: id)
        let first = try await database.conflictContext(for: change.id)
        try await database.settleConflict(
            ConflictSettlement(
                change: change.id, server: server(id, version: 2, body: "milk, bread"),
                outcome: .takeServer, copy: (NoteID(), copyText), expectedRevision: first.revision))
        let copyPut = try #require(try await database.nextChange())
        try await database.complete(copyPut.id, version: 1)

        // The same text typed again on the original meets the same server text again.
        try await database.saveNote(id: id, title: "Groceries", body: "milk, eggs")
        let again = try #require(try await database.nextChange())
        let second = try await database.conflictContext(for: again.id)
        try await database.settleConflict(
            ConflictSettlement(
                change: again.id, server: server(id, version: 3, body: "milk, bread"),
                outcome: .takeServer, copy: (NoteID(), copyText), expectedRevision: second.revision))

        let copies = try await database.readNoteRows().filter { $0.conflictOf == id }
        #expect(copies.count == 1)
        #expect(try await database.nextChange() == nil)
    }

    @Test func takeServerOfATombstoneDeletesTheNote() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Groceries", body: "milk", version: 1)
        try await database.deleteNote(id: id)
        let change = try #require(try await database.nextChange())
        let context = try await database.conflictContext(for: change.id)

        try await database.settleConflict(
            ConflictSettlement(
                change: change.id, server: server(id, version: 3, body: nil), outcome: .takeServer,
                copy: nil, expectedRevision: context.revision))

        #expect(try await database.noteRow(id: id) == nil)
        #expect(try await database.nextChange() == nil)
    }

    @Test func pushQueuesTheSettledTextOnTheServersVersion() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        let context = try await database.conflictContext(for: change.id)
        let merged = NoteContent(title: "Groceries", body: "milk, bread, eggs")

        try await database.settleConflict(
            ConflictSettlement(
                change: change.id, server: server(id, version: 2, body: "milk, bread"),
                outcome: .push(merged), copy: nil, expectedRevision: context.revision))

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "milk, bread, eggs")
        #expect(row.pendingCount == 1)
        let queued = try #require(try await database.nextChange())
        #expect(queued.id != change.id)
        #expect(queued.operation == .put(merged))
        #expect(queued.baseVersion == 2)
        let settled = try await database.conflictContext(for: queued.id)
        #expect(settled.base == NoteText(title: "Groceries", body: "milk, bread"))
    }

    @Test func pushOnATombstoneRecreatesTheNote() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        let context = try await database.conflictContext(for: change.id)
        let mine = NoteContent(title: "Groceries", body: "milk, eggs")

        try await database.settleConflict(
            ConflictSettlement(
                change: change.id, server: server(id, version: 2, body: nil), outcome: .push(mine),
                copy: nil, expectedRevision: context.revision))

        #expect(try await database.noteRow(id: id)?.body == "milk, eggs")
        let queued = try #require(try await database.nextChange())
        #expect(queued.baseVersion == 2)
        #expect(try await database.conflictContext(for: queued.id).base == nil)
    }

    @Test func settlingAfterTheNoteChangedIsRefusedAndWritesNothing() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (id, change) = try await noteWithEditInFlight(database)
        let context = try await database.conflictContext(for: change.id)
        try await database.saveNote(id: id, title: "Groceries", body: "typed meanwhile")

        let error = await #expect(throws: NotesDatabaseError.self) {
            try await database.settleConflict(
                ConflictSettlement(
                    change: change.id, server: self.server(id, version: 2, body: "milk, bread"),
                    outcome: .takeServer, copy: nil, expectedRevision: context.revision))
        }

        #expect(error?.kind == .staleConflict)
        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "typed meanwhile")
        #expect(row.version == 1)
        #expect(row.pendingCount == 2)
        #expect(try await database.nextChange() == change)
    }

    // MARK: - Resolving by hand

    /// An original at "theirs" and its conflict copy at "mine", both synced, nothing pending.
    private func syncedConflict(_ database: NotesDatabase) async throws -> (
        original: NoteID, copy: NoteID
    ) {
        let (original, copy) = (NoteID(), NoteID())
        try await database.apply(
            [
                RemoteNote(
                    id: original, version: 2, updatedAt: Date(timeIntervalSinceReferenceDate: 1),
                    content: NoteContent(title: "Plan", body: "theirs")),
                RemoteNote(
                    id: copy, version: 1, updatedAt: Date(timeIntervalSinceReferenceDate: 2),
                    content: NoteContent(
                        title: "Plan (conflict copy)", body: "mine", conflictOf: original)),
            ], cursor: Cursor("c"), account: AccountID("a"))
        return (original, copy)
    }

    @Test func keepMineGivesTheOriginalTheCopysTextAndDeletesTheCopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, copy) = try await syncedConflict(database)

        try await database.resolveConflict(copy: copy, keep: .mine)

        let row = try #require(try await database.noteRow(id: original))
        #expect(row.title == "Plan")  // the copy mark goes; the text is the copy's
        #expect(row.body == "mine")
        #expect(!row.inConflict)
        #expect(try await database.noteRow(id: copy) == nil)
        let first = try #require(try await database.nextChange())
        #expect(first.noteID == original)
        #expect(first.baseVersion == 2)
        try await database.complete(first.id, version: 3)
        let second = try #require(try await database.nextChange())
        #expect(second.noteID == copy)
        #expect(second.operation == .delete)
    }

    @Test func keepTheirsDeletesOnlyTheCopy() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, copy) = try await syncedConflict(database)

        try await database.resolveConflict(copy: copy, keep: .theirs)

        let row = try #require(try await database.noteRow(id: original))
        #expect(row.body == "theirs")
        #expect(!row.inConflict)
        #expect(row.pendingCount == 0)
        #expect(try await database.noteRow(id: copy) == nil)
        let change = try #require(try await database.nextChange())
        #expect(change.noteID == copy)
        #expect(change.operation == .delete)
        #expect(try await database.readStatus().conflictCount == 0)
    }

    @Test func keepBothUnlinksTheCopyAndSendsIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, copy) = try await syncedConflict(database)

        try await database.resolveConflict(copy: copy, keep: .both)

        let copyRow = try #require(try await database.noteRow(id: copy))
        #expect(copyRow.conflictOf == nil)
        #expect(!copyRow.inConflict)
        #expect(try await database.noteRow(id: original)?.inConflict == false)
        let change = try #require(try await database.nextChange())
        #expect(change.noteID == copy)
        #expect(change.operation == .put(NoteContent(title: "Plan (conflict copy)", body: "mine")))
        #expect(change.baseVersion == 1)
    }

    @Test func resolvingANoteThatIsNoConflictCopyIsRefused() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let (original, _) = try await syncedConflict(database)

        let notACopy = await #expect(throws: NotesDatabaseError.self) {
            try await database.resolveConflict(copy: original, keep: .mine)
        }
        let unknown = await #expect(throws: NotesDatabaseError.self) {
            try await database.resolveConflict(copy: NoteID(), keep: .both)
        }

        #expect(notACopy?.kind == .notAConflictCopy)
        #expect(unknown?.kind == .unknownNote)
        #expect(try await database.nextChange() == nil)
    }
}
