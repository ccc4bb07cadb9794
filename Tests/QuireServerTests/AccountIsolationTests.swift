import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Promise 7: an account never reads or changes another account's notes.
final class AccountIsolationTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!
    private(set) var alice = ""
    private(set) var bob = ""

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
        alice = try await harness.token("alice")
        bob = try await harness.token("bob")
    }

    @Test(arguments: StoreKind.allCases) func otherAccountNeverSeesNotes(store: StoreKind) async throws {
        try await setUp(store)
        _ = await harness.put(ServerHarness.uuid(), payload: "secret", base: nil, token: alice)

        #expect(try await harness.changes(token: bob).changes.isEmpty)
        #expect(try await harness.everything(token: bob).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func deleteOfAnotherAccountsNoteIsNotFound(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "secret", base: nil, token: alice)
        let before = try await harness.everything(token: alice)

        let response = await harness.delete(id, base: 1, token: bob)

        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        #expect(try await harness.everything(token: alice) == before)
    }

    @Test(arguments: StoreKind.allCases) func putToAnotherAccountsIDCreatesOwnNote(store: StoreKind) async throws {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "alice's", base: nil, token: alice)
        let before = try await harness.everything(token: alice)

        let response = await harness.put(id, payload: "bob's", base: 1, token: bob)

        #expect(try response.decoded(PutNoteResponseDTO.self).version == 1)
        #expect(try await harness.everything(token: alice) == before)
        #expect(try await harness.changes(token: bob).changes.map(\.payload) == ["bob's"])
    }

    @Test(arguments: StoreKind.allCases) func idempotencyKeysAreScopedToTheAccount(store: StoreKind) async throws {
        try await setUp(store)
        _ = await harness.put(
            ServerHarness.uuid(), payload: "a", base: nil, token: alice, key: "same")

        let response = await harness.put(
            ServerHarness.uuid(), payload: "b", base: nil, token: bob, key: "same")

        #expect(response.status == 200)
    }

    @Test(arguments: StoreKind.allCases) func inProcessAccountsRefuseTakenAndMalformedNames(store: StoreKind)
        async throws
    {
        try await setUp(store)
        await #expect(throws: ServerStorageError.usernameTaken("alice")) {
            try await harness.server.createAccount(username: "Alice")
        }
        await #expect(throws: ServerStorageError.invalidUsername("a b")) {
            try await harness.server.createAccount(username: "a b")
        }
    }

    @Test(arguments: StoreKind.allCases) func inProcessAccountTokenWorksOnNoteRoutes(store: StoreKind) async throws {
        try await setUp(store)
        let carol = try await harness.server.createAccount(username: "carol")

        let response = await harness.put(
            ServerHarness.uuid(), payload: "c", base: nil, token: carol)

        #expect(response.status == 200)
        #expect(try await harness.changes(token: carol).changes.count == 1)
    }

    @Test(arguments: StoreKind.allCases) func noteIDOfAnotherAccountLooksLikeAnIDThatDoesNotExist(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "secret", base: nil, token: alice)

        let theirs = await harness.delete(id, base: 1, token: bob)
        let nobodys = await harness.delete(ServerHarness.uuid(), base: 1, token: bob)

        #expect(theirs.status == nobodys.status)
        #expect(theirs.body == nobodys.body)
    }

    @Test(arguments: StoreKind.allCases) func tokensAreStoredOnlyAsHashes(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("carol")

        let bytes = try await harness.databaseBytes()

        for token in [alice, bob, session.accessToken, session.refreshToken] {
            #expect(bytes.range(of: Data(token.utf8)) == nil)
        }
        #expect(bytes.range(of: Data(NotesServer.tokenHash(session.accessToken).utf8)) != nil)
    }
}
