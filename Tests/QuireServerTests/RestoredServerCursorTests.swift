import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Cursors after a restore from an older backup (issue 9, defect 8): a cursor names a position in
/// one history, so one the restored server never issued is `invalid_cursor` even once its counter
/// has passed it again (the device then lists everything and uploads what the server lost).
struct RestoredServerCursorTests {
    let harness: ServerHarness
    let token: String
    let storage: SQLiteServerStorage

    init() async throws {
        harness = try ServerHarness()
        token = try await harness.token("alice")
        storage = try #require(harness.server.storage as? SQLiteServerStorage)
    }

    // MARK: - Helpers

    @discardableResult
    private func createNotes(_ count: Int, token: String? = nil) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            let id = ServerHarness.uuid()
            let response = await harness.put(
                id, payload: "n\(index)", base: nil, token: token ?? self.token)
            try #require(response.status == 200, "put answered \(response.status): \(response.text)")
            ids.append(id)
        }
        return ids
    }

    /// Backs the server up to a new file in the harness directory and returns its path.
    private func backUp() async throws -> String {
        let path = harness.directory.appendingPathComponent("backup-\(UUID().uuidString).sqlite").path
        try await storage.backUp(to: path)
        return path
    }

    /// The cursor at the end of the feed, read from the start of the account's history.
    private func latestCursor() async throws -> String {
        try await harness.changes(token: token).nextCursor
    }

    private func expectInvalidCursor(
        _ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == 400, "\(response.text)", sourceLocation: sourceLocation)
        #expect(response.errorCode == "invalid_cursor", sourceLocation: sourceLocation)
    }

    private static func legacyCursor(_ plain: String) -> String {
        Data(plain.utf8).base64URLEncodedString()
    }

    // MARK: - A cursor from the forgotten history

    /// One note before the backup (seq 1), two after it (the cursor is at seq 3); after the
    /// restore, `newWrites` notes take seqs 2, 3, … again.
    @Test(arguments: [1, 2, 3, 5])
    func cursorOfAForgottenHistoryIsInvalidWhateverTheCounterSays(newWrites: Int) async throws {
        // Given a cursor the server issued after a backup, and a restore of that backup.
        try await createNotes(1)
        let backup = try await backUp()
        try await createNotes(2)
        let forgotten = try await latestCursor()
        try await storage.restore(fromBackupAt: backup)

        // When the restored server takes new writes, up to and past the cursor's position.
        try await createNotes(newWrites)
        let response = await harness.changesResponse(token: token, since: forgotten)

        // Then the cursor is not one of this history's: the device must list everything.
        expectInvalidCursor(response)
    }

    @Test func putAnswersOfAForgottenHistoryAreInvalidCursors() async throws {
        let backup = try await backUp()
        let put = await harness.put(ServerHarness.uuid(), payload: "lost", base: nil, token: token)
        let answer = try put.decoded(PutNoteResponseDTO.self)
        try await storage.restore(fromBackupAt: backup)
        try await createNotes(3)

        expectInvalidCursor(await harness.changesResponse(token: token, since: answer.cursor))
        // The position before the lost write is the account's start, shared by both histories.
        let previous = try await harness.changes(token: token, since: answer.previousCursor)
        #expect(previous.changes.count == 3)
    }

    @Test func fullListingBegunInAForgottenHistoryIsInvalid() async throws {
        // Given a listing whose first page ends inside the backup but began after it.
        let kept = try await createNotes(2)
        let backup = try await backUp()
        try await createNotes(1)
        let first = try await harness.changes(token: token, limit: 1)
        try #require(first.hasMore && first.changes.map(\.id) == [kept[0]])

        // When the restored server's new writes pass where the listing began.
        try await storage.restore(fromBackupAt: backup)
        try await createNotes(2)
        let continued = await harness.changesResponse(token: token, since: first.nextCursor)

        // Then the listing cannot go on: its first page came from a history that is gone.
        expectInvalidCursor(continued)
    }

    @Test func fullListingPageOfAForgottenHistoryIsInvalid() async throws {
        // Given a listing that began inside the backup and whose page ends after it.
        try await createNotes(2)
        let first = try await harness.changes(token: token, limit: 1)
        try #require(first.hasMore)
        let backup = try await backUp()
        let ids = try await createNotes(2)
        let second = try await harness.changes(token: token, since: first.nextCursor, limit: 2)
        try #require(second.hasMore && second.changes.last?.id == ids[0])

        try await storage.restore(fromBackupAt: backup)
        try await createNotes(3)
        let continued = await harness.changesResponse(token: token, since: second.nextCursor)

        expectInvalidCursor(continued)
    }

    @Test func cursorIssuedAfterItsMarkWasPrunedIsInvalidInAForgottenHistory() async throws {
        // Given a cursor at a write so old that its mark was pruned before the cursor was issued.
        let backup = try await backUp()
        try await createNotes(1)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        _ = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))
        let forgotten = try await harness.changes(token: token).nextCursor

        // When a restore forgets that write and a new one takes its sequence number.
        try await storage.restore(fromBackupAt: backup)
        let again = try await harness.token("alice")
        try await createNotes(1, token: again)

        // Then the cursor is refused: in its own history that number never got a mark again.
        expectInvalidCursor(await harness.changesResponse(token: again, since: forgotten))
    }

    @Test func purgeKeepsTheMarksOfRecentWrites() async throws {
        // Given a cursor of a forgotten history, and new writes at its number after the restore.
        try await createNotes(1)
        let backup = try await backUp()
        try await createNotes(2)
        let forgotten = try await latestCursor()
        try await storage.restore(fromBackupAt: backup)
        try await createNotes(3)

        // When a purge with the usual retention runs.
        _ = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))

        // Then the new writes keep their marks, and the cursor is still recognised.
        expectInvalidCursor(await harness.changesResponse(token: token, since: forgotten))
    }

    // MARK: - The newest acknowledged write (`known`)

    /// A device whose last pull came before the backup, and whose write the server acknowledged
    /// after it: its cursor is still valid, its `known` write position is not (seeds 4726, 5293).
    @Test(arguments: [false, true])
    func aForgottenAcknowledgedWriteIsInvalidWhateverTheCursor(_ othersWroteAfterTheRestore: Bool) async throws {
        try await createNotes(1)
        let pulled = try await latestCursor()
        let backup = try await backUp()
        let answer = try await harness.put(ServerHarness.uuid(), payload: "mine", base: nil, token: token)
            .decoded(PutNoteResponseDTO.self)
        try await storage.restore(fromBackupAt: backup)
        if othersWroteAfterTheRestore { try await createNotes(3) }

        expectInvalidCursor(await harness.changesResponse(token: token, since: pulled, known: answer.cursor))
        expectInvalidCursor(await harness.changesResponse(token: token, known: answer.cursor))
        #expect(await harness.changesResponse(token: token, since: pulled).status == 200)
    }

    @Test func aKnownWriteOfThisHistoryIsServedFromAnyCursor() async throws {
        try await createNotes(1)
        let pulled = try await latestCursor()
        let answer = try await harness.put(ServerHarness.uuid(), payload: "mine", base: nil, token: token)
            .decoded(PutNoteResponseDTO.self)
        let backup = try await backUp()
        try await createNotes(2)
        try await storage.restore(fromBackupAt: backup)

        let response = await harness.changesResponse(token: token, since: pulled, known: answer.cursor)

        #expect(response.status == 200, "\(response.text)")
    }

    @Test(arguments: ["not a cursor", "ZjM6MToxOjE6MQ"])
    func aKnownThatIsNotAWriteCursorIsRefused(_ known: String) async throws {
        try await createNotes(1)

        expectInvalidCursor(await harness.changesResponse(token: token, known: known))
    }

    // MARK: - Cursors of the current history

    @Test func cursorFromBeforeTheBackupStillWorksAfterTheRestore() async throws {
        try await createNotes(1)
        let shared = try await latestCursor()
        let backup = try await backUp()
        try await createNotes(2)
        try await storage.restore(fromBackupAt: backup)
        let ids = try await createNotes(3)

        let page = try await harness.changes(token: token, since: shared)

        #expect(page.changes.map(\.id) == ids)
    }

    @Test func cursorIssuedAfterTheRestoreWorks() async throws {
        try await createNotes(1)
        let backup = try await backUp()
        try await createNotes(2)
        try await storage.restore(fromBackupAt: backup)
        try await createNotes(2)
        let cursor = try await latestCursor()
        let ids = try await createNotes(2)

        let page = try await harness.changes(token: token, since: cursor)
        let after = try await harness.changes(token: token, since: page.nextCursor)

        #expect(page.changes.map(\.id) == ids)
        #expect(after.changes.isEmpty && after.nextCursor == page.nextCursor)
    }

    @Test func putAnswerCursorsAreAcceptedByTheFeed() async throws {
        try await createNotes(2)
        let id = ServerHarness.uuid()
        let answer = try await harness.put(id, payload: "mine", base: nil, token: token)
            .decoded(PutNoteResponseDTO.self)

        let fromPrevious = try await harness.changes(token: token, since: answer.previousCursor)
        let fromCursor = try await harness.changes(token: token, since: answer.cursor)

        #expect(fromPrevious.changes.map(\.id) == [id])
        #expect(fromPrevious.nextCursor == answer.cursor)
        #expect(fromCursor.changes.isEmpty && fromCursor.nextCursor == answer.cursor)
        // A device at the feed's end gets that same text as the put's previous cursor.
        let next = try await harness.put(
            ServerHarness.uuid(), payload: "next", base: nil, token: token
        ).decoded(PutNoteResponseDTO.self)
        #expect(next.previousCursor == answer.cursor)
    }

    @Test func batchAnswerCursorsAreAcceptedByTheFeed() async throws {
        let id = ServerHarness.uuid()
        let response = await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.batch,
                headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(
                    BatchRequestDTO(changes: [
                        BatchChangeDTO(
                            op: "put", id: id, idempotencyKey: "k1", payload: "p", baseVersion: nil)
                    ]))))
        let result = try #require(
            try response.decoded(BatchResponseDTO.self).results.first)
        let cursor = try #require(result.cursor)
        let previous = try #require(result.previousCursor)

        #expect(try await harness.changes(token: token, since: previous).changes.map(\.id) == [id])
        #expect(try await harness.changes(token: token, since: cursor).changes.isEmpty)
    }

    @Test func cursorWhoseMarkWasPrunedListsEverythingAgainAndTheNewOneIsServed() async throws {
        // Given a cursor, and a purge long after that prunes its position's mark (marks outlive
        // the 30-day tombstones by 60 days).
        let ids = try await createNotes(2)
        let cursor = try await latestCursor()
        harness.clock.advance(by: 100 * 86_400)
        let token = try await harness.token("alice")
        _ = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))

        // Then the old cursor can no longer be told to be of this history (a restore may have
        // forgotten it): 410, and the device lists everything again (seed 951).
        let expired = await harness.changesResponse(token: token, since: cursor)
        #expect(expired.status == 410, "\(expired.text)")
        // The cursor of that listing names the position without a mark, and is served.
        let reissued = try await harness.changes(token: token).nextCursor
        let seal = try await harness.server.cursorSeal()
        let account = try #require(try await harness.server.storage.account(username: "alice")).id
        #expect(
            ChangeCursor(text: reissued, seal: seal, scope: .notes(account))?.position
                == FeedPosition(seq: 2, mark: 0))
        _ = await harness.put(ids[0], payload: "edited", base: 1, token: token)
        let page = try await harness.changes(token: token, since: reissued)
        #expect(page.changes.map(\.id) == [ids[0]] && page.changes.map(\.version) == [2])
    }

    // MARK: - Older cursor forms

    @Test func olderCursorFormsAreStillServed() async throws {
        let ids = try await createNotes(3)

        let incremental = try await harness.changes(token: token, since: Self.legacyCursor("c1:1"))
        let listing = try await harness.changes(
            token: token, since: Self.legacyCursor("f2:1:3"), limit: 1)
        let oldest = try await harness.changes(token: token, since: Self.legacyCursor("f1:2"))

        #expect(incremental.changes.map(\.id) == Array(ids.dropFirst()))
        #expect(listing.changes.map(\.id) == [ids[1]] && listing.hasMore)
        #expect(oldest.changes.map(\.id) == [ids[2]])
        let rest = try await harness.changes(token: token, since: listing.nextCursor)
        #expect(rest.changes.map(\.id) == [ids[2]])
    }

    @Test func emptyServerCursorWorksOnAnyHistory() async throws {
        let start = try await latestCursor()
        let backup = try await backUp()
        try await createNotes(2)
        try await storage.restore(fromBackupAt: backup)
        let ids = try await createNotes(3)

        #expect(try await harness.changes(token: token, since: start).changes.map(\.id) == ids)
    }
}
