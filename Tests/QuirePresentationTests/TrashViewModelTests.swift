import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The trash screen (seed 004 step 07, as `quire trash` and `quire restore ID`): the deleted notes
/// that can come back, most recently deleted first; restoring one is a change that syncs.
@MainActor
struct TrashViewModelTests {
    static let groceries = TrashedNote(
        id: NoteID(), text: NoteText(title: "Groceries", body: "\nmilk\neggs"),
        deletedAt: Harness.now.addingTimeInterval(-60 * 60 * 24 * 2))
    static let untitled = TrashedNote(
        id: NoteID(), text: NoteText(title: "  ", body: "call the plumber"),
        deletedAt: Harness.now.addingTimeInterval(-600),
        deleteUnsent: true)

    func model(_ trash: NoteTrash = NoteTrash(notes: [groceries, untitled])) -> (TrashViewModel, FakeNoteHistory) {
        let repository = FakeNoteHistory(trash: trash)
        return (TrashViewModel(history: repository, dateFormatter: Harness.formatter), repository)
    }

    @Test func nothingIsReadUntilTheScreenAsks() async {
        let (model, repository) = model()
        #expect(repository.readCount == 0)
        #expect(!model.viewState.hasLoaded)
        await model.load()
        #expect(repository.readCount == 1)
        #expect(model.viewState.hasLoaded)
    }

    @Test func theMostRecentlyDeletedComeFirst() async {
        let (model, _) = model()
        await model.load()
        let rows = model.viewState.rows

        #expect(rows.map(\.id) == [Self.untitled.id, Self.groceries.id])
        #expect(rows.map(\.title) == ["Untitled", "Groceries"])
        #expect(rows.map(\.preview) == ["call the plumber", "milk"])
        #expect(rows.map(\.deleted) == ["Deleted 11:50", "Deleted 1 Mar 2025"])
        #expect(rows.map(\.badge) == ["Delete not synced", nil])
    }

    @Test func anEmptyTrashSaysSo() async {
        let (model, _) = model(NoteTrash(notes: []))
        await model.load()
        #expect(model.viewState.empty == "The trash is empty.")
        #expect(model.viewState.rows.isEmpty)
    }

    @Test func restoringANoteTakesItOutOfTheTrash() async {
        let (model, repository) = model()
        await model.load()
        await model.restore(Self.groceries.id)

        #expect(repository.restoredFromTrash == [Self.groceries.id])
        #expect(model.viewState.rows.map(\.id) == [Self.untitled.id])
        #expect(
            model.viewState.message == "Restored “Groceries”. It comes back on your other devices when it syncs.")
    }

    @Test func restoringTheLastNoteLeavesAnEmptyTrash() async {
        let (model, _) = model(NoteTrash(notes: [Self.untitled]))
        await model.load()
        await model.restore(Self.untitled.id)
        #expect(model.viewState.rows.isEmpty)
        #expect(model.viewState.empty == "The trash is empty.")
        #expect(
            model.viewState.message == "Restored “Untitled”. It comes back on your other devices when it syncs.")
    }

    @Test func aFailedRestoreSaysWhyAndKeepsTheNote() async {
        let (model, repository) = model()
        await model.load()
        repository.fail()
        await model.restore(Self.groceries.id)

        #expect(model.viewState.problem == "Couldn't restore “Groceries”: the disk is full")
        #expect(model.viewState.rows.count == 2)
        #expect(model.viewState.message == nil)
    }

    @Test func aFailedReadSaysWhy() async {
        let (model, repository) = model()
        repository.fail()
        await model.load()
        #expect(model.viewState.problem == "Couldn't read the trash: the disk is full")
        #expect(model.viewState.empty == nil)
    }

    @Test func theServersMissingPartIsSaid() async {
        let (offline, _) = model(NoteTrash(notes: [Self.untitled], problem: .unavailable(reason: "offline")))
        await offline.load()
        #expect(
            offline.viewState.notice
                == "Couldn't read the server's trash (offline); showing this device's deleted notes only.")

        let (unreadable, _) = model(NoteTrash(notes: [], problem: .unreadable(count: 1)))
        await unreadable.load()
        #expect(
            unreadable.viewState.notice == "1 deleted note on the server couldn't be opened with this account's key.")
    }
}
