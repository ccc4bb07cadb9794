import Foundation
import QuireCrypto
import QuireWire
import Testing

@testable import QuireServer

/// Issue 12 item 9: cursors are sealed for one account's feed, so they reveal nothing of the
/// server-wide write count, a cursor of another account or feed is refused like any bad one, the
/// plain forms of earlier servers still work, and every instance on one database reads the
/// others' cursors (on both stores).

struct OpaqueCursorTests {
    static func putCursor(_ harness: ServerHarness, token: String) async throws -> String {
        let response = await harness.put(ServerHarness.uuid(), payload: "p", base: nil, token: token)
        try #require(response.status == 200, "put answered \(response.status): \(response.text)")
        return try #require(try response.decoded(PutNoteResponseDTO.self).cursor)
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorShowsNoSequenceNumber(_ store: StoreKind) async throws {
        // Given alice's cursors around two writes of another account.
        let harness = try await ServerHarness(store: store)
        let alice = try await harness.token("alice")
        let bob = try await harness.token("bob")
        let before = try await Self.putCursor(harness, token: alice)
        _ = try await Self.putCursor(harness, token: bob)
        _ = try await Self.putCursor(harness, token: bob)
        let after = try await Self.putCursor(harness, token: alice)
        let page = try await harness.changes(token: alice).nextCursor

        // Then none of them is a plain form, or holds a readable number.
        for cursor in [before, after, page] {
            let bytes = try #require(Data(base64URLEncoded: cursor))
            #expect(ChangeCursor(plainText: cursor) == nil, "\(cursor) is readable")
            let decoded = String(decoding: bytes, as: UTF8.self)
            #expect(!decoded.contains("c2:") && !decoded.contains("f3:"), "\(cursor) is readable")
            #expect(bytes.first == CursorSeal.version)
        }
        #expect(before.count == after.count)
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorOfAnotherAccountIsRefused(_ store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let alice = try await harness.token("alice")
        let bob = try await harness.token("bob")
        let cursor = try await Self.putCursor(harness, token: alice)
        _ = try await Self.putCursor(harness, token: bob)

        let since = await harness.changesResponse(token: bob, since: cursor)
        let known = await harness.changesResponse(token: bob, known: cursor)
        let own = await harness.changesResponse(token: alice, since: cursor, known: cursor)

        #expect(since.status == 400 && since.errorCode == "invalid_cursor", "\(since.text)")
        #expect(known.status == 400 && known.errorCode == "invalid_cursor", "\(known.text)")
        #expect(own.status == 200, "\(own.text)")
    }

    @Test(arguments: StoreKind.allCases)
    func aTripsFeedCursorIsRefusedOnTheNotesFeedAndTheOtherWayRound(_ store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let alice = try await harness.token("alice")
        _ = try await harness.newTrip(token: alice)
        let tripsCursor = try await harness.tripsFeed(token: alice).nextCursor
        let notesCursor = try await Self.putCursor(harness, token: alice)

        let notes = await harness.changesResponse(token: alice, since: tripsCursor)
        let trips = await harness.tripsFeedResponse(token: alice, since: notesCursor)

        #expect(notes.errorCode == "invalid_cursor", "\(notes.text)")
        #expect(trips.errorCode == "invalid_cursor", "\(trips.text)")
    }

    @Test func aTamperedCursorIsRefused() async throws {
        let harness = try await ServerHarness(store: .sqlite)
        let alice = try await harness.token("alice")
        let cursor = try await Self.putCursor(harness, token: alice)
        var bytes = try #require(Data(base64URLEncoded: cursor))

        for index in [0, 1, bytes.count / 2, bytes.count - 1] {
            bytes[index] ^= 0x01
            let response = await harness.changesResponse(
                token: alice, since: bytes.base64URLEncodedString())
            bytes[index] ^= 0x01
            #expect(response.status == 400 && response.errorCode == "invalid_cursor", "byte \(index)")
        }
    }

    @Test func thePlainFormsOfEarlierServersAreStillRead() async throws {
        // Given a sealed cursor, and the same position in the plain form an earlier server issued.
        let harness = try await ServerHarness(store: .sqlite)
        let alice = try await harness.token("alice")
        let sealed = try await Self.putCursor(harness, token: alice)
        let seal = try await harness.server.cursorSeal()
        let account = try #require(try await harness.server.storage.account(username: "alice")).id
        let cursor = try #require(ChangeCursor(text: sealed, seal: seal, scope: .notes(account)))
        #expect(cursor.position.mark != nil)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "later", base: nil, token: alice)

        // Then both read the same page, and the plain one is answered with a sealed cursor.
        for text in [sealed, cursor.plainText, ChangeCursor(seq: cursor.seq).plainText] {
            let page = try await harness.changes(token: alice, since: text)
            #expect(page.changes.map(\.id) == [id])
            #expect(ChangeCursor(plainText: page.nextCursor) == nil)
        }
    }

    @Test func aTripCursorOfTheEarlierMACdFormIsStillReadAndTheNewOneIsSealed() async throws {
        let (harness, alice, trip) = try await ServerHarness.withAlicesTrip()
        let snapshot = try await harness.snapshot(trip, token: alice)
        let seal = try await harness.server.cursorSeal()
        let account = try #require(try await harness.server.storage.account(username: "alice")).id
        let cursor = try #require(
            TripChangeCursor(text: snapshot.cursor, trip: trip, account: account, seal: seal))
        let legacy = cursor.text(trip: trip, key: seal.legacyTripKey)

        let old = await harness.tripChangesResponse(trip, cursor: legacy, token: alice)
        let new = await harness.tripChangesResponse(trip, cursor: snapshot.cursor, token: alice)

        #expect(TripChangeCursor(text: snapshot.cursor, trip: trip, key: seal.legacyTripKey) == nil)
        #expect(old.status == 200, "\(old.text)")
        #expect(new.status == 200, "\(new.text)")
        #expect(!String(decoding: Data(base64URLEncoded: snapshot.cursor) ?? Data(), as: UTF8.self).contains("t1:"))
    }

    @Test(arguments: StoreKind.allCases)
    func twoInstancesOnOneDatabaseReadEachOthersCursors(_ store: StoreKind) async throws {
        // Given a cursor issued by one instance.
        let harness = try await ServerHarness(store: store)
        let second = try await harness.anotherInstance()
        let alice = try await harness.token("alice")
        let cursor = try await Self.putCursor(harness, token: alice)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "later", base: nil, token: alice)

        // When the other instance is asked for the changes after it.
        let response = await second.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, query: ["since": cursor, "known": cursor],
                headers: ["Authorization": "Bearer \(alice)"]))

        // Then it answers the same page, and its cursor is the first instance's.
        #expect(response.status == 200, "\(response.text)")
        let page = try response.decoded(ChangesPageDTO.self)
        #expect(page.changes.map(\.id) == [id])
        let first = try await harness.changes(token: alice, since: cursor)
        #expect(first.nextCursor == page.nextCursor)
        await second.shutDown()
    }

    @Test func theSimulationsCheckReadsTheSequenceInsideASealedCursor() async throws {
        let harness = try await ServerHarness(store: .sqlite)
        let alice = try await harness.token("alice")
        _ = try await Self.putCursor(harness, token: alice)
        let cursor = try await Self.putCursor(harness, token: alice)
        let listing = try await harness.changes(token: alice, limit: 1).nextCursor

        #expect(try await harness.server.feedSequence(ofCursor: cursor, username: "alice") == 2)
        #expect(try await harness.server.feedSequence(ofCursor: cursor, username: "bob") == nil)
        #expect(try await harness.server.feedSequence(ofCursor: listing, username: "alice") == nil)
    }
}
