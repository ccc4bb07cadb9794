import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The conflict screen (seed 004 step 07): both versions side by side, each labelled by where it
/// was typed, so "Keep mine" always means this device's text, whichever note holds it.
@MainActor
struct ConflictViewModelTests {
    static let original = Note.sample("Groceries", "milk, bread", id: NoteID())
    static let copy = Note.sample("Groceries (conflict copy)", "milk, eggs", conflictOf: original.id)

    static func conflict(originalOn: String?, copyOn: String?, originalDeleted: Bool = false) -> NoteConflict {
        NoteConflict(
            original: originalDeleted ? nil : NoteConflict.Version(note: original, typedOn: originalOn),
            copy: NoteConflict.Version(note: copy, typedOn: copyOn))
    }

    func loaded(_ conflict: NoteConflict?, opening id: NoteID = Self.copy.id) async -> (
        ConflictViewModel, FakeNoteConflicts
    ) {
        let repository = FakeNoteConflicts(conflict)
        let model = ConflictViewModel(conflicts: repository, note: id)
        await model.load()
        return (model, repository)
    }

    @Test func mineIsThisDevicesSideAndComesFirst() async {
        // The copy holds this device's text (the engine kept the server's text on the note).
        let (model, repository) = await loaded(Self.conflict(originalOn: "laptop", copyOn: nil))
        let state = model.viewState

        #expect(state.sides.map(\.label) == ["Typed on this device", "Typed on laptop"])
        #expect(state.sides.map(\.body) == ["milk, eggs", "milk, bread"])
        #expect(state.options.map(\.title) == ["Keep mine", "Keep theirs", "Keep both"])

        await model.choose(state.options[0])
        #expect(repository.choices == [.mine])
        #expect(repository.copies == [Self.copy.id])
        #expect(model.viewState.isSettled)
    }

    @Test func onTheOtherDeviceMineIsTheOriginal() async {
        // The same conflict seen from the laptop: its text is the original's.
        let (model, repository) = await loaded(
            Self.conflict(originalOn: nil, copyOn: "phone"), opening: Self.original.id)
        let state = model.viewState

        #expect(state.sides.map(\.label) == ["Typed on this device", "Typed on phone"])
        #expect(state.sides.map(\.body) == ["milk, bread", "milk, eggs"])
        await model.choose(state.options[0])  // Keep mine
        #expect(repository.choices == [.theirs])
    }

    @Test func keepTheirsOnTheOtherDeviceKeepsTheCopysText() async {
        let (model, repository) = await loaded(Self.conflict(originalOn: nil, copyOn: "phone"))
        await model.choose(model.viewState.options[1])  // Keep theirs
        #expect(repository.choices == [.mine])
    }

    @Test func withBothSidesFromOneDeviceTheButtonsNameTheNotes() async {
        let (model, repository) = await loaded(Self.conflict(originalOn: "laptop", copyOn: "laptop"))
        let state = model.viewState

        #expect(state.sides.map(\.label) == ["Typed on laptop", "Typed on laptop"])
        #expect(state.sides.map(\.title) == ["Groceries", "Groceries (conflict copy)"])
        #expect(state.options.map(\.title) == ["Keep the original", "Keep the copy", "Keep both"])
        await model.choose(state.options[2])
        #expect(repository.choices == [.both])
    }

    @Test func anUnnamedDeviceIsAnotherDevice() async {
        let (model, _) = await loaded(Self.conflict(originalOn: "", copyOn: nil))
        #expect(model.viewState.sides.map(\.label) == ["Typed on this device", "Typed on another device"])
    }

    @Test func aDeletedOriginalLeavesTheCopyAndAsksBeforeDiscardingIt() async {
        let (model, repository) = await loaded(Self.conflict(originalOn: nil, copyOn: nil, originalDeleted: true))
        let state = model.viewState

        #expect(state.sides.map(\.body) == ["milk, eggs"])
        #expect(state.message == "The original note was deleted. This copy is the only place this text is.")
        #expect(state.options.map(\.title) == ["Keep it as a note", "Discard it"])
        #expect(state.options[0].confirmation == nil)
        #expect(
            state.options[1].confirmation
                == "Discarding deletes the last place this text is. You can restore it from the trash.")
        await model.choose(state.options[1])
        #expect(repository.choices == [.theirs])
    }

    @Test func aConflictSettledElsewhereIsSettled() async {
        let (model, _) = await loaded(nil)
        #expect(model.viewState.isSettled)
        #expect(model.viewState.sides.isEmpty)
    }

    @Test func aFailedChoiceSaysWhyAndKeepsTheScreen() async {
        let (model, repository) = await loaded(Self.conflict(originalOn: "laptop", copyOn: nil))
        repository.fail()
        await model.choose(model.viewState.options[0])

        #expect(!model.viewState.isSettled)
        #expect(model.viewState.problem == "Couldn't settle the conflict: the disk is full")
        #expect(model.viewState.sides.count == 2)
    }

    @Test func beforeTheReadTheScreenIsLoading() {
        let model = ConflictViewModel(conflicts: FakeNoteConflicts(nil), note: NoteID())
        #expect(model.viewState.isLoading)
        #expect(!model.viewState.isSettled)
    }
}
