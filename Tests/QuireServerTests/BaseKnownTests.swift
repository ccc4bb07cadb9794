import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// What a 409 says of a write's base (`baseKnown`) on both stores: true for a version this
/// history wrote, false for a number or tag it never wrote, absent when it cannot tell. Pins the
/// answers while the stores change where they keep the marks of versions (issue 13, 6: a new
/// note's own mark is read from its row, and goes to `note_marks` only when a later write or a
/// purge replaces the row).
struct BaseKnownTests {
    /// A tag no write of these tests drew: marks are random below 10^15, so a fixed value is
    /// another history's with overwhelming odds.
    static let foreignTag = "123456789012345"

    struct Note {
        let harness: ServerHarness
        var token: String
        let id = ServerHarness.uuid()
        /// Each version's tag, by number (index 0 is version 1).
        var tags: [String] = []

        static func written(
            versions: Int, store: StoreKind, configuration: NotesServerConfiguration = ServerHarness.configuration
        ) async throws -> Note {
            let harness = try await ServerHarness(store: store, configuration: configuration)
            var note = Note(harness: harness, token: try await harness.token("alice"))
            try await note.write(versions: 1...versions)
            return note
        }

        mutating func write(versions: ClosedRange<Int>) async throws {
            for version in versions { try await write("v\(version)") }
        }

        mutating func write(_ text: String) async throws {
            let response = await harness.put(
                id, payload: text, base: tags.isEmpty ? nil : tags.count, baseTag: tags.last, token: token)
            try #require(response.status == 200, "\(response.text)")
            tags.append(try #require(try response.decoded(PutNoteResponseDTO.self).versionTag))
        }

        mutating func delete() async throws {
            // A full listing leaves tombstones out: the feed after the delete has it.
            let before = try await harness.changes(token: token, limit: nil).nextCursor
            let response = await harness.delete(id, base: tags.count, baseTag: tags.last, token: token)
            try #require(response.status == 204, "\(response.text)")
            let listed = try await harness.changes(token: token, since: before).changes.first { $0.id == id }
            tags.append(try #require(listed?.versionTag))
        }

        /// Moves the server's clock on, and signs in again (the access token expires).
        mutating func wait(_ seconds: TimeInterval) async throws {
            harness.clock.advance(by: seconds)
            token = try await harness.token("alice")
        }

        /// The `baseKnown` of a put on `base` with `tag`, which must meet a conflict.
        func baseKnown(base: Int, tag: String?, sourceLocation: SourceLocation = #_sourceLocation) async throws
            -> Bool?
        {
            let response = await harness.put(id, payload: "late", base: base, baseTag: tag, token: token)
            try #require(response.status == 409, "\(response.text)", sourceLocation: sourceLocation)
            return try response.decoded(ConflictResponseDTO.self).baseKnown
        }
    }

    @Test(arguments: StoreKind.allCases) func everyEarlierVersionOfThisHistoryIsKnown(store: StoreKind) async throws {
        let note = try await Note.written(versions: 3, store: store)
        #expect(try await note.baseKnown(base: 1, tag: note.tags[0]) == true)
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == true)
    }

    @Test(arguments: StoreKind.allCases) func aNumberWithAnotherHistorysTagIsNotKnown(store: StoreKind) async throws {
        let note = try await Note.written(versions: 2, store: store)
        // The current number, an earlier one and one past the current, each with a foreign tag.
        #expect(try await note.baseKnown(base: 2, tag: Self.foreignTag) == false)
        #expect(try await note.baseKnown(base: 1, tag: Self.foreignTag) == false)
        #expect(try await note.baseKnown(base: 3, tag: Self.foreignTag) == false)
        // A version 1 that never changed: its mark lives only in its row.
        let single = try await Note.written(versions: 1, store: store)
        #expect(try await single.baseKnown(base: 1, tag: Self.foreignTag) == false)
        #expect(try await single.baseKnown(base: 2, tag: single.tags[0]) == false)
    }

    @Test(arguments: StoreKind.allCases) func withoutATagTheServerCannotTell(store: StoreKind) async throws {
        let note = try await Note.written(versions: 2, store: store)
        #expect(try await note.baseKnown(base: 1, tag: nil) == nil)
    }

    @Test(arguments: StoreKind.allCases) func aDeletedVersionIsKnownAfterItsTombstoneIsPurged(store: StoreKind)
        async throws
    {
        // Given versions 1 and 2, a delete (version 3) whose tombstone is purged, and the id
        // written again on it (version 4, then 5).
        var note = try await Note.written(versions: 2, store: store)
        try await note.delete()
        note.harness.clock.advance(by: 1)
        #expect(try await note.harness.server.purgeTombstones(olderThan: note.harness.clock.now) == 1)
        try await note.write("after the purge")
        try await note.write("and again")
        #expect(note.tags.count == 5)

        // Then every version before the purge, the tombstone's included, is still this history's.
        #expect(try await note.baseKnown(base: 3, tag: note.tags[2]) == true)
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == true)
        #expect(try await note.baseKnown(base: 4, tag: note.tags[3]) == true)
        #expect(try await note.baseKnown(base: 3, tag: Self.foreignTag) == false)
    }

    @Test(arguments: StoreKind.allCases) func anEditLeavesTheReplacedMarkToTheHistoryAndARevivalKeepsTheTombstones(
        store: StoreKind
    ) async throws {
        // Given three versions: the history holds versions 1 and 2 with their marks.
        var note = try await Note.written(versions: 3, store: store)
        let kept = "SELECT COUNT(*) FROM note_marks WHERE note_id = $1"
        // Then no mark was written twice (a random page of `note_marks` an edit, issue 13, 6).
        #expect(try await note.harness.storeCount(kept, [.text(note.id)]) == 0)

        // When the note is deleted and written again: the history keeps no tombstone.
        try await note.delete()
        try await note.write("revived")
        // Then the tombstone's mark is kept on its own, and every version is still known.
        #expect(try await note.harness.storeCount(kept, [.text(note.id)]) == 1)
        for (index, tag) in note.tags.dropLast().enumerated() {
            #expect(try await note.baseKnown(base: index + 1, tag: tag) == true)
        }
    }

    @Test(arguments: StoreKind.allCases) func aBaseOlderThanTheMarksKeptCannotBeJudged(store: StoreKind) async throws {
        // Given version 1, version 2 written long enough after it that the retention prunes
        // version 1's mark, and version 3 after the retention ran.
        var note = try await Note.written(versions: 1, store: store)
        try await note.wait(RetentionQueries.markGrace + 2 * 86_400)
        try await note.write("v2")
        _ = try await note.harness.server.purgeTombstones(olderThan: note.harness.clock.now.addingTimeInterval(-86_400))
        try await note.write("v3")

        // Then a base on version 1 cannot be judged, in this history's tag or another's, though
        // the history still holds its text.
        #expect(try await note.baseKnown(base: 1, tag: note.tags[0]) == nil)
        #expect(try await note.baseKnown(base: 1, tag: Self.foreignTag) == nil)
        #expect(try await note.harness.history(note.id, token: note.token).versions.map(\.version) == [3, 2, 1])
        // Version 2, written since the retention's limit, is still judged.
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == true)
        #expect(try await note.baseKnown(base: 2, tag: Self.foreignTag) == false)
        #expect(try await note.baseKnown(base: 3, tag: Self.foreignTag) == false)
    }

    @Test(arguments: StoreKind.allCases) func aVersionThePolicyPrunedFromTheHistoryIsStillKnown(store: StoreKind)
        async throws
    {
        // Given versions 1 to 3 in one morning and version 4 two days on: the history keeps the
        // morning's last version only.
        var note = try await Note.written(versions: 3, store: store)
        try await note.wait(2 * 86_400)
        try await note.write("v4")
        #expect(try await note.harness.server.pruneHistory() == 2)

        // Then versions 1 and 2 are still this history's, and another history's tag on them is not.
        #expect(try await note.baseKnown(base: 1, tag: note.tags[0]) == true)
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == true)
        #expect(try await note.baseKnown(base: 1, tag: Self.foreignTag) == false)
    }

    @Test(arguments: StoreKind.allCases) func aVersionTheAccountsCapPrunedIsStillKnown(store: StoreKind) async throws {
        // Given four versions of two bytes each and an account cap of three bytes of history: the
        // cap prunes versions 1 and 2, the oldest.
        var configuration = ServerHarness.configuration
        configuration.history.accountBytes = 3
        let note = try await Note.written(versions: 4, store: store, configuration: configuration)
        #expect(try await note.harness.server.pruneHistory() == 2)
        #expect(try await note.harness.history(note.id, token: note.token).versions.map(\.version) == [4, 3])

        // Then their marks are still this history's.
        #expect(try await note.baseKnown(base: 1, tag: note.tags[0]) == true)
        #expect(try await note.baseKnown(base: 2, tag: Self.foreignTag) == false)
    }

    @Test(arguments: StoreKind.allCases) func aTextTheHistoryKeepsLongerThanTheMarksLeavesNoGapToJudgeBy(
        store: StoreKind
    ) async throws {
        // Given version 1, versions 2 to 4 eight days later in one morning, and version 5 a
        // hundred days after the first.
        var note = try await Note.written(versions: 1, store: store)
        try await note.wait(8 * 86_400)
        try await note.write(versions: 2...4)
        try await note.wait(92 * 86_400)
        try await note.write("v5")
        // When the history keeps versions 1 and 4, the last of their weeks, and the retention
        // prunes the marks of versions written before its limit.
        #expect(try await note.harness.server.pruneHistory() == 2)
        _ = try await note.harness.server.purgeTombstones(olderThan: note.harness.clock.now.addingTimeInterval(-86_400))
        #expect(try await note.harness.history(note.id, token: note.token).versions.map(\.version) == [5, 4, 1])

        // Then a base on version 2 or 3, whose marks went, cannot be judged: version 1's mark,
        // kept in the history with its text, does not make them "never written here".
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == nil)
        #expect(try await note.baseKnown(base: 3, tag: Self.foreignTag) == nil)
        #expect(try await note.baseKnown(base: 5, tag: Self.foreignTag) == false)
    }
}
