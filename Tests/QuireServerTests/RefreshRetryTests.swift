import Foundation
import QuireClient
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// A refresh whose answer was lost (issue 9, defect 9): the previous refresh token, presented
/// again soon and while the pair it was rotated into is unused, gets a fresh pair of the same
/// session; any other second use is a replay and revokes the session.
final class RefreshRetryTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
    }

    /// Refreshes with `token` and fails the test unless it answers a new pair.
    private func rotate(_ token: String) async throws -> SessionDTO {
        let response = await harness.refresh(token)
        try #require(response.status == 200, "refresh answered \(response.status): \(response.text)")
        return try response.decoded(SessionDTO.self)
    }

    /// True when `session`'s tokens were revoked: its access token is refused as unknown, and its
    /// refresh token too.
    private func isRevoked(_ session: SessionDTO) async -> Bool {
        let feed = await harness.changesResponse(token: session.accessToken)
        let refresh = await harness.refresh(session.refreshToken)
        return feed.errorCode == "unauthorized" && refresh.errorCode == "invalid_refresh_token"
    }

    // MARK: - A lost reply

    @Test(arguments: StoreKind.allCases) func retryAfterALostReplyGetsAWorkingPairOfTheSameSession(store: StoreKind)
        async throws
    {
        try await setUp(store)
        // Given a refresh whose reply never reached the device.
        let session = try await harness.session("ada")
        let lost = try await rotate(session.refreshToken)

        // When the device sends the same refresh again a few seconds later.
        harness.clock.advance(by: 5)
        let retried = await harness.refresh(session.refreshToken)

        // Then it gets a new pair that works, and the session stays signed in.
        #expect(retried.status == 200)
        let pair = try retried.decoded(SessionDTO.self)
        #expect(pair.accountId == session.accountId)
        #expect(pair.wrappedNotesKey == session.wrappedNotesKey)
        #expect(Set([pair.accessToken, pair.refreshToken]).isDisjoint(with: [lost.accessToken, lost.refreshToken]))
        #expect(await harness.changesResponse(token: pair.accessToken).status == 200)
        let next = try await rotate(pair.refreshToken)
        #expect(await harness.changesResponse(token: next.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func retryInvalidatesThePairOfTheLostReply(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        let lost = try await rotate(session.refreshToken)

        let pair = try await rotate(session.refreshToken)

        #expect(
            await harness.changesResponse(token: lost.accessToken).errorCode == "unauthorized")
        #expect(await harness.refresh(lost.refreshToken).errorCode == "invalid_refresh_token")
        // Nobody had that pair, so presenting it does not sign the device out.
        #expect(await harness.changesResponse(token: pair.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func retryLeavesOtherSessionsAlone(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")
        _ = try await rotate(laptop.refreshToken)

        _ = try await rotate(laptop.refreshToken)

        #expect(await harness.changesResponse(token: phone.accessToken).status == 200)
        #expect(await harness.refresh(phone.refreshToken).status == 200)
    }

    // MARK: - Replays

    @Test(arguments: StoreKind.allCases) func retryAfterTheNewAccessTokenWasUsedRevokesTheSession(store: StoreKind)
        async throws
    {
        try await setUp(store)
        // Given a rotation whose new access token has been used: the reply was not lost.
        let session = try await harness.session("ada")
        let rotated = try await rotate(session.refreshToken)
        #expect(await harness.changesResponse(token: rotated.accessToken).status == 200)

        // When the previous refresh token is presented again, inside the window.
        harness.clock.advance(by: 5)
        let replay = await harness.refresh(session.refreshToken)

        // Then that is a replay: the whole session is revoked.
        #expect(replay.status == 401)
        #expect(replay.errorCode == "invalid_refresh_token")
        #expect(await isRevoked(rotated))
    }

    @Test(arguments: StoreKind.allCases) func retryAfterTheWindowRevokesTheSession(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        let rotated = try await rotate(session.refreshToken)

        harness.clock.advance(by: 61)
        let replay = await harness.refresh(session.refreshToken)

        #expect(replay.errorCode == "invalid_refresh_token")
        #expect(await isRevoked(rotated))
    }

    @Test(arguments: StoreKind.allCases) func retryJustInsideTheWindowIsAccepted(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        _ = try await rotate(session.refreshToken)

        harness.clock.advance(by: 59.9)

        #expect(await harness.refresh(session.refreshToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func secondRetryOfTheSameTokenRevokesTheSession(store: StoreKind) async throws
    {
        try await setUp(store)
        // Given a rotation and one retry of its token, already answered with a fresh pair.
        let session = try await harness.session("ada")
        _ = try await rotate(session.refreshToken)
        let retried = try await rotate(session.refreshToken)

        // When the same token comes a third time, still inside the window.
        let again = await harness.refresh(session.refreshToken)

        // Then the grace was spent: it is a replay.
        #expect(again.errorCode == "invalid_refresh_token")
        #expect(await isRevoked(retried))
    }

    @Test(arguments: StoreKind.allCases) func tokenTwoRotationsOldIsUnknownAndChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)
        // Only the immediately previous token is remembered (and gets the grace).
        let session = try await harness.session("ada")
        let rotated = try await rotate(session.refreshToken)
        let current = try await rotate(rotated.refreshToken)

        let old = await harness.refresh(session.refreshToken)

        #expect(old.errorCode == "invalid_refresh_token")
        #expect(await harness.changesResponse(token: current.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func noGraceWhenTheWindowIsConfiguredOff(store: StoreKind) async throws {
        var configuration = ServerHarness.configuration
        configuration.refreshRetryGrace = 0
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let session = try await harness.session("ada")
        let rotated = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)

        let replay = await harness.refresh(session.refreshToken)

        #expect(replay.errorCode == "invalid_refresh_token")
        #expect(await harness.changesResponse(token: rotated.accessToken).errorCode == "unauthorized")
    }

    // MARK: - Upgrading

    /// SQLite only: it upgrades a SQLite file of schema version 3.
    @Test func sessionFromBeforeTheGraceColumnStillRefreshes() async throws {
        try await setUp(.sqlite)
        // Given a database at schema version 3 with a live session.
        let path = harness.directory.appendingPathComponent("v3.sqlite").path
        let db = try SQLiteConnection(path: path)
        try SQLiteMigrator(Array(SQLiteServerStorage.migrator.migrations.prefix(3))).migrate(db)
        try db.insertAccountAda()
        // Made now: a session from 1970 would be past its absolute lifetime (SessionLifetime).
        let now = Date().storedMilliseconds
        try db.run(
            """
            INSERT INTO sessions (account_id, device_name, access_hash, access_expires_at,
                refresh_hash, created_at)
            VALUES (1, 'laptop', 'a', ?, ?, ?)
            """, now, NotesServer.tokenHash("old-refresh"), now)

        // When a server of this version opens it.
        let server = try NotesServer.sqlite(
            path: path, configuration: ServerHarness.configuration, log: { _ in })
        let refresh = await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.refreshSession,
                body: WireJSON.encode(RefreshSessionRequestDTO(refreshToken: "old-refresh"))))
        await server.shutDown()

        // Then the session refreshes as before.
        #expect(refresh.status == 200)
    }
}

/// The device's own refresh code (``SessionTokenProvider``) against the server, with the reply
/// of its first refresh lost on the way back: the symptom of defect 9 as a user meets it.
struct LostRefreshReplyTests {
    @Test(arguments: [60, 0] as [TimeInterval])
    func deviceThatLostARefreshReplyStaysSignedInWhileTheGraceIsOn(grace: TimeInterval) async throws {
        // Given a signed-in device whose access token was refused.
        var configuration = ServerHarness.configuration
        configuration.refreshRetryGrace = grace
        let harness = try ServerHarness(configuration: configuration)
        let signedIn = try await harness.session("ada")
        let store = InMemoryCredentialStore(
            AccountSession(
                serverURL: URL(string: "http://in-process")!, username: "ada",
                accountId: signedIn.accountId, accessToken: signedIn.accessToken,
                refreshToken: signedIn.refreshToken,
                accessTokenExpiresAt: harness.clock.now.addingTimeInterval(900),
                notesKey: Data(count: 32).base64EncodedString(),
                kdf: KDFParametersDTO(salt: Data(count: 16).base64EncodedString(), iterations: 1_000)))
        let transport = FaultyTransport(wrapping: InProcessTransport(server: harness.server))
        let provider = SessionTokenProvider(
            store: store, accounts: AccountsAPIClient(transport: transport),
            now: { harness.clock.now })

        // When its refresh reaches the server but the answer is lost, and it tries again.
        transport.enqueue(.dropReply)
        await #expect(throws: NotesAPIError.self) {
            _ = try await provider.refreshedToken(after: signedIn.accessToken)
        }
        harness.clock.advance(by: 2)
        let token = try await provider.refreshedToken(after: signedIn.accessToken)

        // Then, with the grace on, it holds a working token; with it off, it is signed out.
        #expect(transport.delivered == ["POST /v1/sessions/refresh", "POST /v1/sessions/refresh"])
        if grace > 0 {
            let token = try #require(token)
            #expect(await harness.changesResponse(token: token).status == 200)
            #expect(try store.load()?.isSignedIn == true)
        } else {
            #expect(token == nil)
            #expect(try store.load()?.isSignedIn == false)
        }
    }
}
