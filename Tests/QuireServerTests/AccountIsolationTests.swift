import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Promise 7: an account never reads or changes another account's notes.
struct AccountIsolationTests {
    let harness: ServerHarness
    let alice: String
    let bob: String

    init() async throws {
        harness = try ServerHarness()
        alice = try await harness.token("alice")
        bob = try await harness.token("bob")
    }

    @Test func otherAccountNeverSeesNotes() async throws {
        _ = await harness.put(ServerHarness.uuid(), payload: "secret", base: nil, token: alice)

        #expect(try await harness.changes(token: bob).changes.isEmpty)
        #expect(try await harness.everything(token: bob).isEmpty)
    }

    @Test func deleteOfAnotherAccountsNoteIsNotFound() async throws {
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "secret", base: nil, token: alice)
        let before = try await harness.everything(token: alice)

        let response = await harness.delete(id, base: 1, token: bob)

        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        #expect(try await harness.everything(token: alice) == before)
    }

    @Test func putToAnotherAccountsIDCreatesOwnNote() async throws {
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "alice's", base: nil, token: alice)
        let before = try await harness.everything(token: alice)

        let response = await harness.put(id, payload: "bob's", base: 1, token: bob)

        #expect(try response.decoded(PutNoteResponseDTO.self).version == 1)
        #expect(try await harness.everything(token: alice) == before)
        #expect(try await harness.changes(token: bob).changes.map(\.payload) == ["bob's"])
    }

    @Test func idempotencyKeysAreScopedToTheAccount() async throws {
        _ = await harness.put(
            ServerHarness.uuid(), payload: "a", base: nil, token: alice, key: "same")

        let response = await harness.put(
            ServerHarness.uuid(), payload: "b", base: nil, token: bob, key: "same")

        #expect(response.status == 200)
    }

    @Test func inProcessAccountsRefuseTakenAndMalformedNames() async throws {
        await #expect(throws: ServerStorageError.usernameTaken("alice")) {
            try await harness.server.createAccount(username: "Alice")
        }
        await #expect(throws: ServerStorageError.invalidUsername("a b")) {
            try await harness.server.createAccount(username: "a b")
        }
    }

    @Test func inProcessAccountTokenWorksOnNoteRoutes() async throws {
        let carol = try await harness.server.createAccount(username: "carol")

        let response = await harness.put(
            ServerHarness.uuid(), payload: "c", base: nil, token: carol)

        #expect(response.status == 200)
        #expect(try await harness.changes(token: carol).changes.count == 1)
    }

    @Test func noteIDOfAnotherAccountLooksLikeAnIDThatDoesNotExist() async throws {
        let id = ServerHarness.uuid()
        _ = await harness.put(id, payload: "secret", base: nil, token: alice)

        let theirs = await harness.delete(id, base: 1, token: bob)
        let nobodys = await harness.delete(ServerHarness.uuid(), base: 1, token: bob)

        #expect(theirs.status == nobodys.status)
        #expect(theirs.body == nobodys.body)
    }

    @Test func tokensAreStoredOnlyAsHashes() async throws {
        let session = try await harness.session("carol")

        let bytes = try await harness.databaseBytes()

        for token in [alice, bob, session.accessToken, session.refreshToken] {
            #expect(bytes.range(of: Data(token.utf8)) == nil)
        }
        #expect(bytes.range(of: Data(NotesServer.tokenHash(session.accessToken).utf8)) != nil)
    }
}
