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

        static func written(versions: Int, store: StoreKind) async throws -> Note {
            let harness = try await ServerHarness(store: store)
            var note = Note(harness: harness, token: try await harness.token("alice"))
            for version in 1...versions { try await note.write("v\(version)") }
            return note
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

    @Test(arguments: StoreKind.allCases) func aBaseOlderThanTheMarksKeptCannotBeJudged(store: StoreKind) async throws {
        // Given versions 1 and 2, written long enough ago that the retention pruned their marks.
        var note = try await Note.written(versions: 2, store: store)
        try await note.wait(RetentionQueries.markGrace + 2 * 86_400)
        _ = try await note.harness.server.purgeTombstones(olderThan: note.harness.clock.now.addingTimeInterval(-86_400))
        // And version 3 written now.
        try await note.write("v3")

        // Then a base on version 1 cannot be judged, in this history's tag or another's.
        #expect(try await note.baseKnown(base: 1, tag: note.tags[0]) == nil)
        #expect(try await note.baseKnown(base: 1, tag: Self.foreignTag) == nil)
        // The version the latest write replaced is still judged: its mark went with that write.
        #expect(try await note.baseKnown(base: 2, tag: note.tags[1]) == true)
        #expect(try await note.baseKnown(base: 3, tag: Self.foreignTag) == false)
    }
}
