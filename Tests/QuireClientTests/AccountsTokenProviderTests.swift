import Foundation
import QuireClient
import QuireTestSupport
import QuireWire
import Testing

/// ``SessionTokenProvider`` behind the notes client: one refresh on a 401, shared by concurrent
/// requests; signed out (and no tokens kept) when the refresh is refused.
struct AccountsTokenProviderTests {
    /// A signed-in session on a fresh fake server, stored in memory.
    func signedIn() async throws -> (AccountsFakeServer, InMemoryCredentialStore, AccountSession) {
        let server = AccountsFakeServer()
        let session = try await AccountFlows.register(
            serverURL: URL(string: "http://quire.test")!, username: "ada", password: "maple orbit lantern",
            deviceName: "laptop",
            transport: server, iterations: 1_000
        ).session
        return (server, InMemoryCredentialStore(session), session)
    }

    @Test func noSessionMeansNoToken() async throws {
        let provider = SessionTokenProvider(
            store: InMemoryCredentialStore(), accounts: AccountsAPIClient(transport: AccountsFakeServer()))

        #expect(try await provider.accessToken() == nil)
        #expect(try await provider.refreshedToken(after: "anything") == nil)
    }

    @Test func freshTokenIsUsedWithoutRefreshing() async throws {
        let (server, store, session) = try await signedIn()
        let provider = SessionTokenProvider(store: store, accounts: AccountsAPIClient(transport: server))

        #expect(try await provider.accessToken() == session.accessToken)
        #expect(await server.refreshRequests == 0)
    }

    @Test func concurrentRequestsRefusedAtOnceShareOneRefresh() async throws {
        let (server, store, session) = try await signedIn()
        let provider = SessionTokenProvider(store: store, accounts: AccountsAPIClient(transport: server))
        let api = NotesAPIClient(transport: server, tokens: provider)
        await server.expireAccessTokens()
        await server.holdRefreshes()

        // Given eight requests that all get a 401 with the old token,
        let pages = Task {
            try await withThrowingTaskGroup(of: ChangesPageDTO.self) { group in
                for _ in 0..<8 { group.addTask { try await api.changes(since: nil, limit: 10, wait: 0) } }
                return try await group.reduce(into: [ChangesPageDTO]()) { $0.append($1) }
            }
        }
        // when the one refresh is held until every request has been refused,
        let allRefused = await eventually {
            let refused = await server.notesRequests
            let refreshes = await server.refreshRequests
            return refused >= 8 && refreshes >= 1
        }
        #expect(allRefused)
        await server.releaseRefreshes()

        // then all eight succeed on the retry, after exactly one refresh.
        let results = try await pages.value
        #expect(results.count == 8)
        #expect(await server.refreshRequests == 1)
        #expect(await server.notesRequests == 16)
        let stored = try #require(try store.load())
        #expect(stored.accessToken != session.accessToken)
        #expect(stored.refreshToken != session.refreshToken)
        #expect(stored.notesKey == session.notesKey)
    }

    @Test func twoProcessesOfOneDeviceRefreshOnceBetweenThem() async throws {
        let (server, _, session) = try await signedIn()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileCredentialStore(directory: directory.url).save(session)
        // Two providers, each with its own store object on the same files: two processes.
        let first = SessionTokenProvider(
            store: FileCredentialStore(directory: directory.url), accounts: AccountsAPIClient(transport: server))
        let second = SessionTokenProvider(
            store: FileCredentialStore(directory: directory.url), accounts: AccountsAPIClient(transport: server))
        await server.expireAccessTokens()
        await server.holdRefreshes()

        let rejected = try #require(session.accessToken)
        let one = Task { try await first.refreshedToken(after: rejected) }
        let two = Task { try await second.refreshedToken(after: rejected) }
        #expect(await eventually { await server.refreshRequests >= 1 })
        await server.releaseRefreshes()
        let tokens = [try await one.value, try await two.value]

        #expect(await server.refreshRequests == 1)
        #expect(tokens[0] != nil && tokens[0] == tokens[1])
        #expect(tokens[0] != rejected)
        #expect(try FileCredentialStore(directory: directory.url).load()?.accessToken == tokens[0])
    }

    @Test func callerRefusedAnAlreadyReplacedTokenGetsTheNewOneWithoutARefresh() async throws {
        let (server, store, session) = try await signedIn()
        let provider = SessionTokenProvider(store: store, accounts: AccountsAPIClient(transport: server))
        let old = try #require(session.accessToken)

        let first = try await provider.refreshedToken(after: old)
        let second = try await provider.refreshedToken(after: old)

        #expect(first != nil && first != old)
        #expect(second == first)
        #expect(await server.refreshRequests == 1)
    }

    @Test func refusedRefreshSignsOutKeepingNoTokens() async throws {
        let (server, store, session) = try await signedIn()
        let provider = SessionTokenProvider(store: store, accounts: AccountsAPIClient(transport: server))
        let api = NotesAPIClient(transport: server, tokens: provider)
        await server.revokeAllSessions()

        let error = try await #require(throws: NotesAPIError.self) {
            try await api.changes(since: nil, limit: 10, wait: 0)
        }

        #expect(error.kind == .unauthorized)
        let stored = try #require(try store.load())
        #expect(stored.accessToken == nil)
        #expect(stored.refreshToken == nil)
        #expect(!stored.isSignedIn)
        #expect(stored.username == session.username)
        #expect(try await provider.accessToken() == nil)
        // Signed out stays signed out: no further refresh is attempted.
        _ = try? await api.changes(since: nil, limit: 10, wait: 0)
        #expect(await server.refreshRequests == 1)
    }

    @Test func unreachableRefreshIsTransientAndKeepsTheTokens() async throws {
        let (server, store, session) = try await signedIn()
        let provider = SessionTokenProvider(store: store, accounts: AccountsAPIClient(transport: server))
        await server.setUnreachable(true)

        let error = try await #require(throws: NotesAPIError.self) {
            try await provider.refreshedToken(after: try #require(session.accessToken))
        }

        #expect(error.kind == .unreachable)
        #expect(try store.load() == session)
    }

    @Test func tokenNearItsExpiryIsRefreshedBeforeUse() async throws {
        let (server, store, session) = try await signedIn()
        let expiresAt = try #require(session.accessTokenExpiresAt)
        let provider = SessionTokenProvider(
            store: store, accounts: AccountsAPIClient(transport: server), now: { expiresAt - 10 })

        let token = try await provider.accessToken()

        #expect(token != session.accessToken)
        #expect(try store.load()?.accessToken == token)
        #expect(await server.refreshRequests == 1)
    }

    @Test func expiringTokenIsStillUsedWhenTheServerIsUnreachable() async throws {
        let (server, store, session) = try await signedIn()
        let expiresAt = try #require(session.accessTokenExpiresAt)
        let provider = SessionTokenProvider(
            store: store, accounts: AccountsAPIClient(transport: server), now: { expiresAt + 60 })
        await server.setUnreachable(true)

        #expect(try await provider.accessToken() == session.accessToken)
    }
}
