import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// A full listing of several pages against tombstone purges (issue 9, defect 6): a purge from
/// before the listing never stops it; a purge during it that may hide a delete restarts it.
final class FullListingAfterPurgeTests {
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

    /// Deletes `id` (at version 1) and fails the test unless the delete is accepted.
    private func delete(_ id: String, token: String) async throws {
        let response = await harness.delete(id, base: 1, token: token)
        try #require(response.status == 204, "delete answered \(response.status): \(response.text)")
    }

    /// Purges with the server's default retention (30 days) at the harness clock's time.
    private func purge() async throws -> Int {
        try await harness.server.purgeTombstones(
            olderThan: harness.clock.now.addingTimeInterval(-30 * 86_400))
    }

    /// The pages of a full listing from no cursor to `hasMore == false`; fails the test on any
    /// answer other than a 200 page.
    private func fullListing(token: String, limit: Int?) async throws -> [ChangesPageDTO] {
        var pages = [try await harness.changes(token: token, limit: limit)]
        while let last = pages.last, last.hasMore {
            try #require(pages.count < 100, "the listing does not end")
            pages.append(try await harness.changes(token: token, since: last.nextCursor, limit: limit))
        }
        return pages
    }

    private static func legacyFullListingCursor(seq: Int64) -> String {
        Data("f1:\(seq)".utf8).base64URLEncodedString()
    }

    // MARK: - A purge from before the listing

    @Test(arguments: StoreKind.allCases, [100, nil] as [Int?])
    func fullListingOfSeveralPagesFinishesAfterAPurge(store: StoreKind, limit: Int?) async throws {
        try await setUp(store)
        // Given more live notes than one page holds (the default page is 200) and one delete
        // whose tombstone is purged.
        let ids = try await createNotes(202)
        try await delete(ids[5], token: token)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        #expect(try await purge() == 1)

        // When a new device lists everything from no cursor.
        let pages = try await fullListing(token: token, limit: limit)

        // Then it reaches the end in one go and sees exactly the live notes.
        let live = ids.enumerated().filter { $0.offset != 5 }.map(\.element)
        #expect(pages.count == (limit == 100 ? 3 : 2))
        #expect(pages.flatMap(\.changes).map(\.id) == live)
        #expect(pages.flatMap(\.changes).allSatisfy { !$0.deleted && $0.payload != nil })
        let after = try await harness.changes(token: token, since: pages.last?.nextCursor)
        #expect(after.changes.isEmpty && !after.hasMore)
    }

    @Test(arguments: StoreKind.allCases) func purgeDuringAListingOfOnlyOlderTombstonesDoesNotExpireIt(store: StoreKind)
        async throws
    {
        try await setUp(store)
        // Given a tombstone nearly as old as the retention when a listing begins.
        let ids = try await createNotes(150)
        try await delete(ids[10], token: token)
        harness.clock.advance(by: 29 * 86_400)
        let token = try await harness.token("alice")
        let first = try await harness.changes(token: token, limit: 100)
        try #require(first.hasMore)

        // When the purge removes it before the listing continues.
        harness.clock.advance(by: 2 * 86_400)
        let later = try await harness.token("alice")
        #expect(try await purge() == 1)
        let rest = try await harness.changes(token: later, since: first.nextCursor, limit: 100)

        // Then the listing goes on: that note was gone before it began, so it lists no delete.
        #expect(!rest.hasMore)
        let live = ids.enumerated().filter { $0.offset != 10 }.map(\.element)
        #expect((first.changes + rest.changes).map(\.id) == live)
    }

    // MARK: - A purge during the listing

    @Test(arguments: StoreKind.allCases) func purgeDuringAListingThatMayHideADeleteExpiresItsContinuation(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        // Given a listing whose first page showed a note that is then deleted.
        let ids = try await createNotes(150)
        let first = try await harness.changes(token: token, limit: 100)
        try #require(first.hasMore && first.changes.first?.id == ids[0])
        try await delete(ids[0], token: token)

        // When that tombstone is purged before the listing continues.
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        #expect(try await purge() == 1)
        let continued = await harness.changesResponse(
            token: token, since: first.nextCursor, limit: 100)

        // Then the continuation cannot show the delete, so the device must start over.
        #expect(continued.status == 410)
        #expect(continued.errorCode == "cursor_expired")
        let restarted = try await fullListing(token: token, limit: 100)
        #expect(restarted.flatMap(\.changes).map(\.id) == Array(ids.dropFirst()))
    }

    @Test(arguments: StoreKind.allCases) func deleteDuringAListingWithoutAPurgeReachesTheDevice(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let ids = try await createNotes(150)
        let first = try await harness.changes(token: token, limit: 100)
        try await delete(ids[0], token: token)

        let rest = try await harness.changes(token: token, since: first.nextCursor, limit: 100)

        #expect(rest.changes.last?.id == ids[0])
        #expect(rest.changes.last?.deleted == true)
    }

    // MARK: - Incremental and older cursors keep their rule

    @Test(arguments: StoreKind.allCases) func incrementalCursorBelowThePurgeStillExpires(store: StoreKind) async throws
    {
        try await setUp(store)
        let ids = try await createNotes(3)
        let cursor = try await harness.changes(token: token).nextCursor
        try await delete(ids[1], token: token)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        #expect(try await purge() == 1)

        let response = await harness.changesResponse(token: token, since: cursor)

        #expect(response.status == 410)
        #expect(response.errorCode == "cursor_expired")
    }

    @Test(arguments: StoreKind.allCases) func olderFullListingCursorBelowThePurgeStillExpires(store: StoreKind)
        async throws
    {
        try await setUp(store)
        // A cursor handed out before this server version carries no listing start.
        let ids = try await createNotes(3)
        try await delete(ids[2], token: token)
        harness.clock.advance(by: 40 * 86_400)
        let token = try await harness.token("alice")
        #expect(try await purge() == 1)

        let response = await harness.changesResponse(
            token: token, since: Self.legacyFullListingCursor(seq: 1))

        #expect(response.status == 410)
        #expect(response.errorCode == "cursor_expired")
    }

    @Test(arguments: StoreKind.allCases) func olderFullListingCursorStillContinuesWithPayloads(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let ids = try await createNotes(3)

        let page = try await harness.changes(
            token: token, since: Self.legacyFullListingCursor(seq: 1), limit: 1)
        let rest = try await harness.changes(token: token, since: page.nextCursor)

        #expect(page.changes.map(\.id) == [ids[1]])
        // Full-listing pages carry the reader's own writes' payloads.
        #expect((page.changes + rest.changes).allSatisfy { $0.payload != nil })
        #expect(rest.changes.map(\.id) == [ids[2]])
    }

    @Test(arguments: StoreKind.allCases) func listingStartAheadOfTheServerIsAnInvalidCursor(store: StoreKind)
        async throws
    {
        try await setUp(store)
        _ = try await createNotes(2)

        let response = await harness.changesResponse(
            token: token, since: ChangeCursor(seq: 1, listingStart: 999).plainText)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_cursor")
    }
}

/// The cursor's text forms.
struct ChangeCursorTests {
    @Test(arguments: [
        ChangeCursor(seq: 0), ChangeCursor(seq: 42), ChangeCursor(seq: 7, listingStart: 9),
        ChangeCursor(seq: 9, listingStart: 7), ChangeCursor(seq: 0, listingStart: 0),
        ChangeCursor(position: FeedPosition(seq: 0, mark: 0)),
        ChangeCursor(position: FeedPosition(seq: 42, mark: FeedPosition.maxMark)),
        ChangeCursor(
            position: FeedPosition(seq: 999_999_999_999_999_999, mark: 5),
            listingStart: FeedPosition(seq: 999_999_999_999_999_999, mark: FeedPosition.maxMark)),
        ChangeCursor(
            position: FeedPosition(seq: 9, mark: 0), listingStart: FeedPosition(seq: 7, mark: 3)),
    ])
    func cursorTextRoundTrips(cursor: ChangeCursor) {
        #expect(ChangeCursor(plainText: cursor.plainText) == cursor)
    }

    @Test func pageOfAListingAnOlderCursorBeganKeepsTheOlderForm() {
        // Its listing start has no known mark, and "none" (0) would not match a stored one.
        let cursor = ChangeCursor(
            position: FeedPosition(seq: 9, mark: 4), listingStart: FeedPosition(seq: 7, mark: nil))

        #expect(ChangeCursor(plainText: cursor.plainText) == ChangeCursor(seq: 9, listingStart: 7))
    }

    @Test func olderFullListingFormReadsAsAListingThatBeganAtItsPosition() {
        let text = Data("f1:12".utf8).base64URLEncodedString()

        #expect(ChangeCursor(plainText: text) == ChangeCursor(seq: 12, listingStart: 12))
    }

    @Test(arguments: [
        "f2:1", "f2:1:", "f2::1", "f2:1:2:3", "f2:-1:2", "f2:1:x", "c1:1:2", "f3:1:2", "c2:1",
        "c2:1:", "c2:1:2:3", "c2:1:-2", "f3:1:2:3", "f3:1:2:3:4:5", "f3:1:2:3:x",
    ])
    func malformedCursorIsRejected(decoded: String) {
        #expect(ChangeCursor(plainText: Data(decoded.utf8).base64URLEncodedString()) == nil)
    }
}
