import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// The history screen (seed 004 step 07, as `quire history` and `quire restore ID --version N`):
/// a note's texts newest first with time, device, size and first line, read when the screen asks;
/// restoring one is an ordinary synced change.
@MainActor
struct NoteHistoryViewModelTests {
    static let note = NoteID()

    static func version(
        _ reference: String, _ title: String, _ body: String, minutesAgo: Double, typedOn: String? = nil,
        current: Bool = false
    ) -> NoteHistoryVersion {
        NoteHistoryVersion(
            reference: reference, savedAt: Harness.now.addingTimeInterval(-minutesAgo * 60),
            text: NoteText(title: title, body: body), typedOn: typedOn, isCurrent: current)
    }

    /// Three server versions and a text only this device kept, given out of order.
    static let history = NoteHistory(versions: [
        version("1", "Groceries", "milk", minutesAgo: 60 * 24 * 3, typedOn: "laptop"),
        version("3", "Groceries", "milk, eggs, bread", minutesAgo: 5, current: true),
        version("L7", "", "\n  first draft  \nmore", minutesAgo: 30),
        version("2", "Groceries", "milk, eggs", minutesAgo: 90, typedOn: ""),
    ])

    func model(_ history: NoteHistory = Self.history) -> (NoteHistoryViewModel, FakeNoteHistory) {
        let repository = FakeNoteHistory(history)
        return (
            NoteHistoryViewModel(history: repository, note: Self.note, dateFormatter: Harness.formatter), repository
        )
    }

    @Test func nothingIsReadUntilTheScreenAsks() async {
        let (model, repository) = model()
        #expect(repository.readCount == 0)
        #expect(!model.viewState.hasLoaded)
        #expect(model.viewState.rows.isEmpty)
        #expect(model.viewState.empty == nil)

        await model.load()
        #expect(repository.readCount == 1)
        #expect(model.viewState.hasLoaded)
        #expect(!model.viewState.isLoading)
    }

    @Test func versionsAreNewestFirstWithTheCurrentOneOnTop() async {
        let (model, _) = model()
        await model.load()
        let rows = model.viewState.rows

        #expect(rows.map(\.id) == ["3", "L7", "2", "1"])
        #expect(rows.map(\.label) == ["Version 3 (current)", "Kept on this device only", "Version 2", "Version 1"])
        #expect(rows.map(\.time) == ["11:55", "11:30", "10:30", "28 Feb 2025 at 12:00"])
        #expect(rows.map(\.device) == ["This device", "This device", "Unknown device", "laptop"])
        #expect(rows.map(\.firstLine) == ["Groceries", "first draft", "Groceries", "Groceries"])
        #expect(rows.map(\.size) == ["26 characters", "21 characters", "19 characters", "13 characters"])
        #expect(rows.map(\.canRestore) == [false, true, true, true])
    }

    @Test func anEmptyTextHasAFirstLineAndOneCharacterIsSingular() async {
        let (model, _) = model(
            NoteHistory(versions: [
                Self.version("2", "", "", minutesAgo: 1), Self.version("1", "", "a", minutesAgo: 2),
            ]))
        await model.load()
        #expect(model.viewState.rows.map(\.firstLine) == ["Empty note", "a"])
        #expect(model.viewState.rows.map(\.size) == ["0 characters", "1 character"])
    }

    @Test func aNoteWithNoEarlierTextsSaysSo() async {
        let (model, _) = model(NoteHistory(versions: []))
        await model.load()
        #expect(model.viewState.empty == "No earlier texts of this note yet.")
    }

    @Test func selectingAVersionShowsItsWholeText() async {
        let (model, _) = model()
        await model.load()
        model.select("2")
        #expect(model.viewState.preview == NoteHistoryPreview(reference: "2", title: "Groceries", body: "milk, eggs"))
        model.select(nil)
        #expect(model.viewState.preview == nil)
    }

    @Test func restoringAVersionMakesItCurrentAndReadsTheHistoryAgain() async {
        let (model, repository) = model()
        await model.load()
        await model.restore("1")

        #expect(repository.restored == ["1"])
        #expect(repository.readCount == 2)
        #expect(
            model.viewState.message
                == "Restored version 1 as the note's text. It syncs like any edit; the text it replaced stays here.")
        #expect(model.viewState.rows.first?.id == "4")
        #expect(model.viewState.rows.first?.firstLine == "Groceries")
        #expect(model.viewState.problem == nil)
    }

    @Test func aTextKeptOnlyHereIsNamedAsSuch() async {
        let (model, _) = model()
        await model.load()
        await model.restore("L7")
        #expect(
            model.viewState.message
                == "Restored the text kept on this device as the note's text. It syncs like any edit; the text it "
                + "replaced stays here.")
    }

    @Test func theCurrentVersionIsNotRestored() async {
        let (model, repository) = model()
        await model.load()
        await model.restore("3")
        #expect(repository.restored.isEmpty)
        #expect(model.viewState.message == nil)
    }

    @Test func aVersionWithTheCurrentTextSaysSoAndChangesNothing() async {
        let (model, repository) = model(
            NoteHistory(versions: [
                Self.version("2", "A", "b", minutesAgo: 1, current: true), Self.version("1", "A", "b", minutesAgo: 2),
            ]))
        await model.load()
        await model.restore("1")
        #expect(repository.restored.isEmpty)
        #expect(model.viewState.message == "The note already has that text; nothing to restore.")
    }

    @Test func aFailedRestoreSaysWhyAndKeepsTheList() async {
        let (model, repository) = model()
        await model.load()
        repository.fail()
        await model.restore("2")

        #expect(model.viewState.problem == "Couldn't restore version 2: the disk is full")
        #expect(model.viewState.rows.count == 4)
        #expect(model.viewState.message == nil)
    }

    @Test func aFailedReadSaysWhyAndKeepsWhatWasShown() async {
        let (model, repository) = model()
        await model.load()
        repository.fail()
        await model.load()

        #expect(model.viewState.problem == "Couldn't read the history: the disk is full")
        #expect(model.viewState.rows.count == 4)
        repository.fail(false)
        await model.load()
        #expect(model.viewState.problem == nil)
    }

    @Test func theServersMissingPartIsSaidAboveThisDevicesTexts() async {
        var offline = Self.history
        offline.problem = .unavailable(reason: "the server can't be reached")
        let (model, _) = model(offline)
        await model.load()
        #expect(
            model.viewState.notice
                == "Couldn't read the server's history (the server can't be reached); showing this device's texts only."
        )

        var unreadable = Self.history
        unreadable.problem = .unreadable(count: 2)
        let (other, _) = self.model(unreadable)
        await other.load()
        #expect(other.viewState.notice == "2 versions on the server couldn't be opened with this account's key.")
    }
}
