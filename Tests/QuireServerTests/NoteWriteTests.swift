import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// PUT and DELETE: versions, conflicts, tombstones and idempotency.
final class NoteWriteTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!
    private(set) var token = ""

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        token = try await harness.token("alice")
    }

    @Test(arguments: StoreKind.allCases) func createAnswersVersionOne(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.put(
            ServerHarness.uuid(), payload: "p1", base: nil, token: token)

        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        #expect(try response.decoded(PutNoteResponseDTO.self).version == 1)
    }

    @Test(arguments: StoreKind.allCases) func updateWithCurrentBaseBumpsVersion(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)

        let response = await harness.put(id, payload: "p2", base: 1, token: token)

        #expect(try response.decoded(PutNoteResponseDTO.self).version == 2)
        let feed = try await harness.changes(token: token)
        #expect(feed.changes.map(\.payload) == ["p2"])
        #expect(feed.changes.first?.updatedAt == harness.clock.now)
    }

    @Test(arguments: StoreKind.allCases) func staleBaseGetsConflictWithServerCopy(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.put(id, payload: "p2", base: 1, token: token)

        let response = await harness.put(id, payload: "late", base: 1, token: token)

        #expect(response.status == 409)
        let note = try response.decoded(ConflictResponseDTO.self).note
        #expect(note.id == id && note.version == 2 && note.payload == "p2" && !note.deleted)
        #expect(try await harness.changes(token: token).changes.map(\.payload) == ["p2"])
    }

    @Test(arguments: StoreKind.allCases) func newNoteWithBaseTheServerLacksIsCreatedAtVersionOne(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let response = await harness.put(
            ServerHarness.uuid(), payload: "kept", base: 7, token: token)

        #expect(try response.decoded(PutNoteResponseDTO.self).version == 1)
    }

    @Test(arguments: StoreKind.allCases) func uppercaseNoteIDIsStoredLowercase(store: StoreKind) async throws {
        try await setUp(store)
        let id = UUID().uuidString
        _ = await harness.put(id, payload: "p1", base: nil, token: token)

        let response = await harness.put(id.lowercased(), payload: "p2", base: 1, token: token)

        #expect(response.status == 200)
        #expect(try await harness.changes(token: token).changes.map(\.id) == [id.lowercased()])
    }

    @Test(arguments: StoreKind.allCases) func deleteLeavesTombstoneInFeed(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        let cursor = try await harness.changes(token: token).nextCursor

        let response = await harness.delete(id, base: 1, token: token)

        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        let feed = try await harness.changes(token: token, since: cursor)
        let tombstone = try #require(feed.changes.first)
        #expect(feed.changes.count == 1)
        #expect(tombstone.id == id && tombstone.deleted && tombstone.payload == nil)
        #expect(tombstone.version == 2)
    }

    @Test(arguments: StoreKind.allCases) func deleteWithStaleBaseGetsConflict(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.put(id, payload: "p2", base: 1, token: token)

        let response = await harness.delete(id, base: 1, token: token)

        #expect(response.status == 409)
        #expect(try response.decoded(ConflictResponseDTO.self).note.payload == "p2")
        #expect(try await harness.changes(token: token).changes.count == 1)
    }

    @Test(arguments: StoreKind.allCases) func putOnTombstoneWithItsVersionRevivesNote(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.delete(id, base: 1, token: token)

        let response = await harness.put(id, payload: "edit wins", base: 2, token: token)

        #expect(try response.decoded(PutNoteResponseDTO.self).version == 3)
        let live = try await harness.changes(token: token).changes
        #expect(live.map(\.payload) == ["edit wins"])
        #expect(live.first?.deleted == false)
    }

    @Test(arguments: StoreKind.allCases) func putOnTombstoneWithOlderBaseGetsTombstoneConflict(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.delete(id, base: 1, token: token)

        let response = await harness.put(id, payload: "edit", base: 1, token: token)

        #expect(response.status == 409)
        let note = try response.decoded(ConflictResponseDTO.self).note
        #expect(note.deleted && note.payload == nil && note.version == 2)
        #expect(response.text.contains(#""payload":null"#) || !response.text.contains("payload"))
    }

    @Test(arguments: StoreKind.allCases) func deleteOfTombstoneIsAcceptedWithoutNewChange(store: StoreKind) async throws
    {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.delete(id, base: 1, token: token)
        let before = try await harness.everything(token: token)

        let response = await harness.delete(id, base: 1, token: token)

        #expect(response.status == 204)
        #expect(try await harness.everything(token: token) == before)
    }

    // MARK: - Idempotency

    @Test(arguments: StoreKind.allCases) func replayReturnsFirstAnswerByteForByteAndChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let id = ServerHarness.uuid()
        let first = await harness.put(id, payload: "p1", base: nil, token: token, key: "change-1")
        let before = try await harness.everything(token: token)

        let again = await harness.put(id, payload: "p1", base: nil, token: token, key: "change-1")

        #expect(again.status == first.status)
        #expect(again.body == first.body)
        #expect(try await harness.everything(token: token) == before)
    }

    @Test(arguments: StoreKind.allCases) func replayedDeleteAnswers204Again(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.delete(id, base: 1, token: token, key: "del-1")
        _ = await harness.put(id, payload: "revived", base: 2, token: token)

        let again = await harness.delete(id, base: 1, token: token, key: "del-1")

        #expect(again.status == 204)
        #expect(try await harness.changes(token: token).changes.map(\.payload) == ["revived"])
    }

    @Test(arguments: StoreKind.allCases) func sameKeyWithDifferentBodyIsRefused(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token, key: "change-1")
        let before = try await harness.everything(token: token)

        let response = await harness.put(
            id, payload: "other", base: nil, token: token, key: "change-1")

        #expect(response.status == 422)
        #expect(response.errorCode == "idempotency_key_reused")
        #expect(try await harness.everything(token: token) == before)
    }

    @Test(arguments: StoreKind.allCases) func resendAfterConflictIsDecidedAgainstCurrentNote(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "p1", base: nil, token: token)
        _ = await harness.put(id, payload: "p2", base: 1, token: token)
        let first = await harness.put(id, payload: "mine", base: 1, token: token, key: "k")
        _ = await harness.put(id, payload: "p3", base: 2, token: token)

        let resend = await harness.put(id, payload: "mine", base: 1, token: token, key: "k")

        #expect(first.status == 409 && resend.status == 409)
        #expect(try resend.decoded(ConflictResponseDTO.self).note.payload == "p3")
    }

    @Test(arguments: StoreKind.allCases) func resendAfterNotFoundCanSucceedLater(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        let first = await harness.delete(id, base: 1, token: token, key: "k")
        _ = await harness.put(id, payload: "p1", base: nil, token: token)

        let resend = await harness.delete(id, base: 1, token: token, key: "k")

        #expect(first.status == 404 && first.errorCode == "not_found")
        #expect(resend.status == 204)
    }
}
