import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `GET /v1/notes/changes`: order, paging, cursors, full resync and tombstone retention.
final class ChangesFeedTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!
    private(set) var token = ""

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        token = try await harness.token("alice")
    }

    private func createNotes(_ count: Int) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            let id = ServerHarness.uuid()
            let response = await harness.put(id, payload: "n\(index)", base: nil, token: token)
            try #require(response.status == 200)
            ids.append(id)
        }
        return ids
    }

    @Test(arguments: StoreKind.allCases) func pagesWithLimitUntilHasMoreIsFalse(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(5)

        let first = try await harness.changes(token: token, limit: 2)
        let second = try await harness.changes(token: token, since: first.nextCursor, limit: 2)
        let third = try await harness.changes(token: token, since: second.nextCursor, limit: 2)

        #expect(first.hasMore && second.hasMore && !third.hasMore)
        #expect((first.changes + second.changes + third.changes).map(\.id) == ids)
        let after = try await harness.changes(token: token, since: third.nextCursor)
        #expect(after.changes.isEmpty && !after.hasMore)
        #expect(after.nextCursor == third.nextCursor)
    }

    /// Each page says how many changes are left after it, for a progress total (issue 11): a
    /// listing counts live notes only, an incremental pull tombstones too.
    @Test(arguments: StoreKind.allCases) func everyPageSaysHowManyRemain(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(5)
        _ = await harness.delete(ids[4], base: 1, token: token)

        let first = try await harness.changes(token: token, limit: 2)
        let second = try await harness.changes(token: token, since: first.nextCursor, limit: 2)
        let incremental = try await harness.changes(token: token, since: ChangeCursor(seq: 0).plainText, limit: 2)

        #expect(first.remaining == 2)
        #expect(second.remaining == 1)  // the rest of the listing's pages carry tombstones too
        #expect(incremental.remaining == 3)  // five notes, one a tombstone now
    }

    @Test(arguments: StoreKind.allCases) func exactlyFullPageReportsNoMore(store: StoreKind) async throws {
        try await setUp(store)
        _ = try await createNotes(2)

        let page = try await harness.changes(token: token, limit: 2)

        #expect(page.changes.count == 2 && !page.hasMore)
    }

    @Test(arguments: StoreKind.allCases) func fullResyncOmitsTombstones(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(3)
        _ = await harness.delete(ids[1], base: 1, token: token)

        let page = try await harness.changes(token: token)

        #expect(page.changes.map(\.id) == [ids[0], ids[2]])
        #expect(page.changes.allSatisfy { !$0.deleted })
    }

    @Test(arguments: StoreKind.allCases) func lastPageCursorSkipsTrailingTombstones(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(2)
        _ = await harness.delete(ids[1], base: 1, token: token)

        let resync = try await harness.changes(token: token)
        let next = try await harness.changes(token: token, since: resync.nextCursor)

        #expect(resync.changes.map(\.id) == [ids[0]])
        #expect(next.changes.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func incrementalFeedOrdersBySequenceAndIncludesTombstones(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let ids = try await createNotes(2)
        let cursor = try await harness.changes(token: token).nextCursor
        _ = await harness.put(ids[0], payload: "edited", base: 1, token: token)
        _ = await harness.delete(ids[1], base: 1, token: token)

        let page = try await harness.changes(token: token, since: cursor)

        #expect(page.changes.map(\.id) == [ids[0], ids[1]])
        #expect(page.changes.map(\.deleted) == [false, true])
    }

    @Test(arguments: StoreKind.allCases) func emptyAccountGetsEmptyPageAndUsableCursor(store: StoreKind) async throws {
        try await setUp(store)
        let page = try await harness.changes(token: token)
        _ = try await createNotes(1)

        let next = try await harness.changes(token: token, since: page.nextCursor)

        #expect(page.changes.isEmpty && !page.hasMore)
        #expect(next.changes.count == 1)
    }

    @Test(arguments: StoreKind.allCases) func cursorAheadOfServerIsInvalid(store: StoreKind) async throws {
        try await setUp(store)
        _ = try await createNotes(1)

        let response = await harness.changesResponse(
            token: token, since: ChangeCursor(seq: 99).plainText)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_cursor")
    }

    @Test(arguments: StoreKind.allCases) func purgeExpiresCursorsFromBeforeIt(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(2)
        let oldCursor = try await harness.changes(token: token).nextCursor
        _ = await harness.delete(ids[0], base: 1, token: token)
        harness.clock.advance(by: 40 * 86_400)
        // The first access token expired long ago: sign in again, as the client would.
        let token = try await harness.token("alice")
        _ = await harness.put(ids[1], payload: "recent", base: 1, token: token)

        let purged = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))

        #expect(purged == 1)
        let expired = await harness.changesResponse(token: token, since: oldCursor)
        #expect(expired.status == 410)
        #expect(expired.errorCode == "cursor_expired")
        let resync = try await harness.changes(token: token)
        #expect(resync.changes.map(\.payload) == ["recent"])
        let afterResync = try await harness.changes(token: token, since: resync.nextCursor)
        #expect(afterResync.changes.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func purgeKeepsRecentTombstones(store: StoreKind) async throws {
        try await setUp(store)
        let ids = try await createNotes(1)
        let cursor = try await harness.changes(token: token).nextCursor
        _ = await harness.delete(ids[0], base: 1, token: token)

        let purged = try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))

        #expect(purged == 0)
        #expect(
            try await harness.changes(token: token, since: cursor).changes.map(\.deleted) == [true])
    }

    @Test(arguments: StoreKind.allCases) func openAPIDocumentIsJSONNamingEveryRoute(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.server.handle(
            HTTPRequest(method: "GET", path: "/v1/openapi.json"))

        #expect(response.status == 200)
        let document = try #require(
            try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        #expect(
            Set(paths.keys) == [
                "/v1/health", "/v1/openapi.json", "/v1/notes/changes", "/v1/notes/batch", "/v1/notes/{id}",
                "/v1/notes/{id}/versions", "/v1/notes/trash",
                "/v1/accounts", "/v1/accounts/{username}/kdf", "/v1/accounts/current/password",
                "/v1/accounts/current/recovery", "/v1/accounts/recovery/wrapped-notes-key",
                "/v1/accounts/recovery/password",
                "/v1/sessions", "/v1/sessions/refresh", "/v1/sessions/current", "/v1/sessions/{id}", "/metrics",
                "/v1/trips", "/v1/trips/{id}", "/v1/trips/{id}/ops", "/v1/trips/{id}/changes",
                "/v1/trips/{id}/uploads", "/v1/trips/{id}/uploads/{upload}",
                "/v1/accounts/current/sharing-key", "/v1/accounts/{username}/sharing-key", "/v1/trips/{id}/invites",
                "/v1/trips/{id}/members", "/v1/trips/{id}/members/{username}", "/v1/invites",
                "/v1/invites/{invite}/accept", "/v1/invites/{invite}/decline", "/v1/trips/{id}/links",
                "/v1/trips/{id}/links/{link}", "/v1/links/{link}/open", "/v1/links/{link}/join", "/v1/trips/{id}/keys",
            ])
    }

    @Test(arguments: StoreKind.allCases) func healthNeedsNoToken(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.server.handle(HTTPRequest(method: "GET", path: "/v1/health"))

        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)
    }
}
