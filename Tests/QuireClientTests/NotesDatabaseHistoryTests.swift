import Foundation
import QuireClient
import QuireDomain
import Testing

/// This device's own history (client migration 11) and restores (issue 10, parts 2-4): every text
/// a note row held before it changed or went is kept, bounded, whatever the write path; a restore
/// is an ordinary save written on the server's version.
struct NotesDatabaseHistoryTests {
    let account = AccountID("account-1")

    @Test func eachSaveKeepsTheTextItReplacedNewestFirst() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Essay", body: "one", version: 1)
        try await database.saveNote(id: id, title: "Essay", body: "two")
        try await database.saveNote(id: id, title: "Essay", body: "three")

        let history = try await database.localHistory(of: id)

        // The current unsent text first (not a version yet), then "two" (never sent: no
        // number), then "one" (the confirmed version 1).
        #expect(history.map(\.body) == ["three", "two", "one"])
        #expect(history.map(\.version) == [nil, nil, 1])
        #expect(history.filter { !$0.typedHere }.isEmpty)
        #expect(history[0].localID == 0)
        let merged = NoteHistoryMerge.merged(server: nil, local: history)
        #expect(merged.map(\.body) == ["two", "one"])
        #expect(merged.first?.reference.hasPrefix("L") == true)
    }

    @Test func atMostTheNewestThirtyTwoTextsOfANoteAreKept() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        for number in 1...40 { try await database.saveNote(id: id, title: "Counter", body: "\(number)") }

        let history = try await database.localHistory(of: id)

        #expect(history.count == 1 + 32)
        #expect(history.last?.body == "8")
        #expect(history.first?.body == "40")
    }

    @Test func aDeleteFromAnotherDeviceKeepsTheTextItBlankedAndTheNoteIsInTheTrash() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Trip", body: "pack the charger", version: 1)

        try await database.apply(
            [RemoteNote(id: id, version: 2, updatedAt: Date(), content: nil, versionTag: "77")], cursor: Cursor("c1"),
            account: account)

        #expect(try await database.noteRow(id: id) == nil)
        #expect(try await database.localHistory(of: id).map(\.body) == ["pack the charger"])
        let trash = try await database.localTrash()
        #expect(trash.map(\.id) == [id])
        #expect(trash.first?.body == "pack the charger")
        #expect(trash.first?.deleteUnsent == false)
    }

    @Test func aRestoreOfANoteThisDeviceNeverHadIsWrittenOnTheServersTombstone() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()

        try await database.restoreNote(
            id: id, title: "Trip", body: "pack the charger",
            server: ServerNoteState(version: 3, versionTag: "42", deleted: true))

        let row = try #require(try await database.noteRow(id: id))
        #expect(row.body == "pack the charger")
        let change = try #require(try await database.nextChange())
        #expect(change.baseVersion == 3)
        #expect(change.baseVersionTag == "42")
        #expect(change.operation == .put(NoteContent(title: "Trip", body: "pack the charger")))
    }

    @Test func aRestoreOfALiveNoteIsAnOrdinarySaveThatKeepsTheTextItReplaces() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveSynced(id, title: "Groceries", body: "whole milk", version: 3)

        try await database.restoreNote(
            id: id, title: "Groceries", body: "oat milk",
            server: ServerNoteState(version: 3, versionTag: nil, deleted: false))

        #expect(try await database.noteRow(id: id)?.body == "oat milk")
        #expect(try await database.nextChange()?.baseVersion == 3)
        #expect(try await database.localHistory(of: id).map(\.body) == ["oat milk", "whole milk"])
    }

    @Test func aRestoreOnADeviceBehindTheServerRestoresExactlyThatTextOnTheServersVersion() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        // This device holds version 2 ("b"); the server is at 3 ("c"), not pulled yet.
        try await database.saveSynced(id, title: "T", body: "b", version: 2)

        try await database.restoreNote(
            id: id, title: "T", body: "b",
            server: ServerNoteState(
                version: 3, versionTag: "9", deleted: false, current: NoteContent(title: "T", body: "c")))

        #expect(try await database.noteRow(id: id)?.body == "b")
        let change = try #require(try await database.nextChange())
        #expect(change.baseVersion == 3)
        #expect(change.operation == .put(NoteContent(title: "T", body: "b")))
    }

    @Test func theMergedListHasEachTextOnceAndTheServersNumbers() {
        let now = Date()
        func version(_ number: Int?, _ body: String, local: Int? = nil, at offset: TimeInterval, current: Bool = false)
            -> NoteVersion
        {
            NoteVersion(
                version: number, localID: local, savedAt: now.addingTimeInterval(offset), title: "T", body: body,
                typedOn: nil, typedHere: true, isCurrent: current)
        }
        let server = [version(3, "c", at: -10, current: true), version(2, "b", at: -20), version(1, "a", at: -30)]
        let local = [
            version(nil, "unsent", local: 0, at: 0), version(nil, "c", local: 9, at: -10),
            version(nil, "refused", local: 8, at: -15), version(2, "b", local: 7, at: -20),
            version(nil, "refused", local: 6, at: -16),
        ]

        let merged = NoteHistoryMerge.merged(server: server, local: local)

        #expect(merged.map(\.reference) == ["3", "L8", "2", "1"])
        #expect(merged.map(\.body) == ["c", "refused", "b", "a"])
    }
}
