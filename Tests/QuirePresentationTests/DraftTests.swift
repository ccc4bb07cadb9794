import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The editor's draft: the view model's until saved (seed 000 card 2).
@MainActor
struct DraftTests {
    typealias Save = FakeNotesRepository.Save

    let note = Note.sample("Groceries", "eggs", minutesAgo: 5)
    let other = Note.sample("Trip", "tickets", minutesAgo: 10)

    private func openNote() async throws -> Harness {
        let h = Harness(notes: [note, other])
        try await h.start()
        try await h.open(note.id)
        return h
    }

    @Test func theDraftIsSavedHalfASecondAfterTheLastKeystrokeAndNotBefore() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.edit(title: "Groceries", body: "eggs\nmilk")
        #expect(h.state.editor?.body == "eggs\nmilk")
        h.clock.advance(by: .milliseconds(499))
        try await h.waitUntil("the debounce waiting") { h.clock.sleeperCount == 1 }
        await h.expectStillHolds("nothing saved before 500 ms") {
            h.notes.saves.isEmpty && h.state.editor?.isDirty == true
        }

        h.clock.advance(by: .milliseconds(1))
        try await h.waitUntil("the save") { h.notes.saves.count == 1 }
        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "eggs\nmilk")])
        try await h.waitUntil("the saved row") {
            h.state.rows.first { $0.id == note.id }?.badge == .notSynced
        }
        #expect(h.state.editor?.isDirty == false)
        #expect(h.state.editor?.remoteChangePending == false)
    }

    @Test func quickEditsMakeOneSaveWithTheLatestText() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.edit(title: "Groceries", body: "eggs\nm")
        h.clock.advance(by: .milliseconds(300))
        h.viewModel.edit(title: "Groceries", body: "eggs\nmi")
        h.clock.advance(by: .milliseconds(300))
        h.viewModel.edit(title: "Groceries", body: "eggs\nmilk")
        h.clock.advance(by: .milliseconds(499))
        try await h.waitUntil("the last debounce waiting") { h.clock.sleeperCount == 1 }
        await h.expectStillHolds("nothing saved before 500 ms after the last edit") {
            h.notes.saves.isEmpty && h.state.editor?.isDirty == true
        }

        h.clock.advance(by: .milliseconds(1))
        try await h.waitUntil("the save") { h.notes.saves.count == 1 }
        await h.viewModel.flush()
        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "eggs\nmilk")])
        #expect(h.clock.sleeperCount == 0)
    }

    @Test func typingBackToTheSavedTextSavesNothing() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.edit(title: "Groceries", body: "eggs!")
        h.viewModel.edit(title: "Groceries", body: "eggs")
        #expect(h.state.editor?.isDirty == false)
        h.clock.advance(by: .seconds(1))
        await h.viewModel.flush()
        #expect(h.notes.saves.isEmpty)
    }

    @Test func selectingAnotherNoteSavesTheDirtyDraftAtOnce() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.edit(title: "Groceries", body: "eggs\nbread")
        h.viewModel.select(other.id)

        try await h.waitUntil("the save on leaving") { h.notes.saves.count == 1 }
        try await h.waitUntil("the other note open") { h.state.editor?.id == other.id }
        #expect(h.state.editor?.body == "tickets")
        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "eggs\nbread")])
        h.clock.advance(by: .seconds(1))
        await h.viewModel.flush()
        #expect(h.notes.saves.count == 1)
    }

    @Test func anIncomingListNeverOverwritesTheDraft() async throws {
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries", body: "eggs\nmilk")

        h.notes.store(.sample("Groceries", "bread\neggs", id: note.id))
        try await h.waitUntil("the remote change noticed") {
            h.state.editor?.remoteChangePending == true
        }

        #expect(h.state.editor?.body == "eggs\nmilk")
        #expect(h.state.editor?.isDirty == true)
        #expect(h.state.rows.first { $0.id == note.id }?.preview == "bread")
    }

    @Test func aRemoteChangeIsMergedIntoTheDraftWhenItSaves() async throws {
        // Title and body merge independently: this device renamed, the other one edited the body.
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries (Sat)", body: "eggs")
        h.notes.store(.sample("Groceries", "bread\neggs", id: note.id))
        try await h.waitUntil("the remote change") { h.state.editor?.remoteChangePending == true }

        await h.viewModel.flush()

        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries (Sat)", body: "bread\neggs")])
        #expect(h.state.editor?.title == "Groceries (Sat)")
        #expect(h.state.editor?.body == "bread\neggs")
        #expect(h.state.editor?.remoteChangePending == false)
    }

    @Test func aClashingRemoteChangeKeepsTheDraftAndMakesNoNote() async throws {
        // Only the sync engine makes conflict copies (linked, counted, resolvable), through the
        // database's settlement; the view model only ever saves the note it edits.
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries", body: "duck eggs")
        h.notes.store(.sample("Groceries", "quail eggs", id: note.id))
        try await h.waitUntil("the remote change") { h.state.editor?.remoteChangePending == true }

        await h.viewModel.flush()

        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "duck eggs")])
        #expect(Set(h.notes.storedIDs) == [note.id, other.id])
        #expect(h.state.editor?.id == note.id)
        #expect(h.state.editor?.body == "duck eggs")
        #expect(h.state.editor?.isDirty == false)
        #expect(h.state.editor?.changedElsewhere == true)
    }

    @Test func whenTheEngineSettledTheClashTheDraftGoesOnInItsCopy() async throws {
        // This device saved "duck eggs". The engine met the other device's "quail eggs": the note
        // took the server's text and "duck eggs" went to a linked copy, in one commit. What was
        // typed since belongs with the copy; saving it on the note would replace "quail eggs".
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries", body: "duck eggs")
        await h.viewModel.flush()
        h.viewModel.edit(title: "Groceries", body: "duck eggs\nbread")
        let copy = Note.sample(
            "Groceries (conflict copy)", "duck eggs", sync: .pending(changes: 1), conflictOf: note.id)

        h.notes.store(.sample("Groceries", "quail eggs", sync: .conflict, id: note.id), copy)

        try await h.waitUntil("the editor on the copy") { h.state.editor?.id == copy.id }
        #expect(h.state.editor?.title == "Groceries (conflict copy)")
        #expect(h.state.editor?.body == "duck eggs\nbread")
        #expect(h.state.editor?.changedElsewhere == true)
        await h.viewModel.flush()
        #expect(
            h.notes.saves.last
                == Save(id: copy.id, title: "Groceries (conflict copy)", body: "duck eggs\nbread"))
        #expect(h.notes.note(note.id)?.body == "quail eggs")
        #expect(Set(h.notes.storedIDs) == [note.id, other.id, copy.id])
    }

    @Test func aCleanEditorShowsTheOtherDevicesText() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.notes.store(.sample("Groceries", "eggs\nflour", id: note.id))
        try await h.waitUntil("the new text") { h.state.editor?.body == "eggs\nflour" }
        #expect(h.state.editor?.remoteChangePending == false)
        #expect(h.state.editor?.isDirty == false)
    }

    @Test func createThenTypingSavesANewNote() async throws {
        let h = Harness(notes: [note])
        defer { h.stop() }
        try await h.start()

        h.viewModel.create()
        let editor = try #require(h.state.editor)
        #expect(editor.id != note.id)
        #expect(editor.title.isEmpty && editor.body.isEmpty)
        #expect(h.clock.sleeperCount == 0)

        h.viewModel.edit(title: "Ideas", body: "")
        h.clock.advance(by: .milliseconds(500))
        try await h.waitUntil("the new note saved") { h.notes.saves.count == 1 }
        #expect(h.notes.saves == [Save(id: editor.id, title: "Ideas", body: "")])
        try await h.waitUntil("its row") { h.state.rows.contains { $0.id == editor.id } }
        #expect(h.state.editor?.id == editor.id)
    }

    @Test func aNewNoteLeftEmptyIsNeverSaved() async throws {
        let h = Harness(notes: [note])
        defer { h.stop() }
        try await h.start()

        h.viewModel.create()
        h.viewModel.select(note.id)
        await h.viewModel.flush()

        #expect(h.notes.saves.isEmpty)
        #expect(h.state.rows.count == 1)
    }

    @Test func deleteGoesThroughTheRepositoryAndClosesItsEditor() async throws {
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries", body: "typed, then deleted")

        h.viewModel.delete(note.id)

        #expect(h.state.editor == nil)
        await h.viewModel.flush()
        #expect(h.notes.deletes == [note.id])
        #expect(h.notes.saves.isEmpty)
        #expect(h.clock.sleeperCount == 0)
        try await h.waitUntil("the row gone") { h.state.rows.map(\.id) == [other.id] }
    }

    @Test func deletingAnotherNoteKeepsTheEditor() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.delete(other.id)
        await h.viewModel.flush()

        #expect(h.notes.deletes == [other.id])
        #expect(h.state.editor?.id == note.id)
    }

    @Test func flushSavesTheDraftImmediately() async throws {
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries!", body: "eggs")

        await h.viewModel.flush()

        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries!", body: "eggs")])
        #expect(h.state.editor?.isDirty == false)
        #expect(h.clock.sleeperCount == 0)
    }

    @Test func aNoteDeletedElsewhereClosesACleanEditor() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.notes.remove(note.id)
        try await h.waitUntil("the editor closed") { h.state.editor == nil }
    }

    @Test func aNoteDeletedElsewhereKeepsUnsavedTextAndSavingBringsItBack() async throws {
        let h = try await openNote()
        defer { h.stop() }
        h.viewModel.edit(title: "Groceries", body: "eggs\nkeep me")

        h.notes.remove(note.id)
        try await h.waitUntil("the delete noticed") { h.state.editor?.deletedElsewhere == true }
        #expect(h.state.editor?.body == "eggs\nkeep me")

        await h.viewModel.flush()
        #expect(h.notes.note(note.id)?.body == "eggs\nkeep me")
    }

    @Test func aFailedSaveKeepsTheDraftDirtyAndTheNextSaveRetries() async throws {
        let h = try await openNote()
        defer { h.stop() }
        h.notes.failNextSaveOnce()
        h.viewModel.edit(title: "Groceries", body: "eggs\nmilk")

        await h.viewModel.flush()
        #expect(h.notes.saves.isEmpty)
        #expect(h.state.editor?.isDirty == true)
        #expect(h.state.editor?.saveFailed == true)
        #expect(h.state.writeFailure == "Couldn't save the note: disk full")

        await h.viewModel.flush()
        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "eggs\nmilk")])
        #expect(h.state.editor?.saveFailed == false)
        #expect(h.state.writeFailure == nil)
    }

    @Test func editingARefusedNoteAsksForASync() async throws {
        // Saving a refused note replaces its refused change: no new pending change wakes the
        // controller, so the view model asks.
        let refused = Note.sample("Groceries", "eggs", sync: .refused)
        let h = Harness(notes: [refused])
        defer { h.stop() }
        try await h.start()
        try await h.open(refused.id)

        h.viewModel.edit(title: "Groceries", body: "eggs, fixed")
        await h.viewModel.flush()

        #expect(h.notes.saves == [Save(id: refused.id, title: "Groceries", body: "eggs, fixed")])
        try await h.waitUntil("a sync requested") { h.sync.requests == 1 }
    }

    @Test func editingAnyOtherNoteLeavesTheSyncToTheController() async throws {
        let h = try await openNote()
        defer { h.stop() }

        h.viewModel.edit(title: "Groceries", body: "eggs\nmilk")
        await h.viewModel.flush()

        #expect(h.notes.saves.count == 1)
        await h.expectStillHolds("no sync requested") { h.sync.requests == 0 }
    }

    @Test func leavingTheScreenSavesTheDraft() async throws {
        let h = try await openNote()
        h.viewModel.edit(title: "Groceries", body: "eggs\nbutter")

        h.viewModel.onDisappear()
        await h.viewModel.flush()

        #expect(h.notes.saves == [Save(id: note.id, title: "Groceries", body: "eggs\nbutter")])
    }
}
