import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Version numbers after a restore from an older backup (issue 9): the restored server hands the
/// numbers after the backup out again, to other texts, so a number alone no longer names a text.
/// Each state carries a tag (the mark of the write that made it); a write whose base has the
/// right number but another tag meets the server's copy as a 409, and the device merges.
struct RestoredServerVersionTagTests {
    let harness: ServerHarness
    let token: String
    let storage: SQLiteServerStorage

    init() async throws {
        harness = try ServerHarness()
        token = try await harness.token("alice")
        storage = try #require(harness.server.storage as? SQLiteServerStorage)
    }

    private func backUp() async throws -> String {
        let path = harness.directory.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path
        try await storage.backUp(to: path)
        return path
    }

    private func saved(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> PutNoteResponseDTO
    {
        try #require(response.status == 200, "\(response.text)", sourceLocation: sourceLocation)
        return try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: response.body)
    }

    /// Version 1 before the backup; version 2 ("forgotten") after it; a restore; another device
    /// writes version 2 again ("new"). Returns the note id and the forgotten version 2's tag.
    private func forkVersionTwo() async throws -> (id: String, forgottenTag: String, newTag: String) {
        let id = ServerHarness.uuid()
        let first = try saved(await harness.put(id, payload: "v1", base: nil, token: token))
        let backup = try await backUp()
        let forgotten = try saved(
            await harness.put(
                id, payload: "forgotten v2", base: 1, baseTag: first.versionTag, token: token))
        try await storage.restore(fromBackupAt: backup)
        let new = try saved(
            await harness.put(id, payload: "new v2", base: 1, baseTag: first.versionTag, token: token))
        #expect(forgotten.version == 2 && new.version == 2)
        return (id, try #require(forgotten.versionTag), try #require(new.versionTag))
    }

    @Test func everyStateCarriesATagThatTheFeedAndThePutAnswerAgreeOn() async throws {
        let id = ServerHarness.uuid()
        let answer = try saved(await harness.put(id, payload: "p", base: nil, token: token))
        let listed = try await harness.changes(token: token).changes.first { $0.id == id }
        #expect(answer.versionTag != nil)
        #expect(listed?.versionTag == answer.versionTag)
    }

    @Test func aPutOnTheSameNumberFromAForgottenHistoryIsAConflict() async throws {
        // Given version 2 written twice, once in a history the restore forgot.
        let fork = try await forkVersionTwo()
        #expect(fork.forgottenTag != fork.newTag)

        // When a device that read the forgotten version 2 writes on it.
        let response = await harness.put(
            fork.id, payload: "edit of forgotten v2", base: 2, baseTag: fork.forgottenTag,
            token: token)

        // Then it meets the server's version 2 as a conflict, and that text is not overwritten.
        #expect(response.status == 409, "\(response.text)")
        let conflict = try WireJSON.decoder().decode(ConflictResponseDTO.self, from: response.body)
        #expect(conflict.note.payload == "new v2")
        #expect(conflict.note.versionTag == fork.newTag)
    }

    @Test func aDeleteOnTheSameNumberFromAForgottenHistoryIsAConflict() async throws {
        let fork = try await forkVersionTwo()
        let response = await harness.delete(
            fork.id, base: 2, baseTag: fork.forgottenTag, token: token)
        #expect(response.status == 409, "\(response.text)")
    }

    @Test func aWriteOnTheCurrentTagOrWithoutATagIsApplied() async throws {
        let fork = try await forkVersionTwo()
        let onCurrent = try saved(
            await harness.put(fork.id, payload: "v3", base: 2, baseTag: fork.newTag, token: token))
        #expect(onCurrent.version == 3)
        // An older client sends no tag: the number alone decides, as before.
        let untagged = try saved(await harness.put(fork.id, payload: "v4", base: 3, token: token))
        #expect(untagged.version == 4)
    }

    @Test(arguments: ["", "0", "x1", "1234567890123456", "-5"])
    func aMalformedTagIsRefusedWithAClearError(_ tag: String) async throws {
        let id = ServerHarness.uuid()
        _ = try saved(await harness.put(id, payload: "p", base: nil, token: token))
        let response = await harness.put(id, payload: "q", base: 1, baseTag: tag, token: token)
        #expect(response.status == 400, "\(response.text)")
        #expect(response.text.contains("baseVersionTag"))
    }
}
