import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Access-token expiry, refresh rotation with reuse detection, and sign-out.
final class SessionLifecycleTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
    }

    private func signOut(_ token: String) async -> HTTPResponse {
        await harness.server.handle(
            HTTPRequest(
                method: "DELETE", path: WireRoutes.currentSession,
                headers: ["Authorization": "Bearer \(token)"]))
    }

    // MARK: - Expiry

    @Test(arguments: StoreKind.allCases) func accessTokenExpiresAfterItsLifetime(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        harness.clock.advance(by: 899)
        #expect(await harness.changesResponse(token: session.accessToken).status == 200)

        harness.clock.advance(by: 1)
        let response = await harness.changesResponse(token: session.accessToken)

        #expect(response.status == 401)
        #expect(response.errorCode == "token_expired")
        #expect(try response.decoded(ErrorResponseDTO.self).error.message.contains("refresh"))
        #expect(response.header("WWW-Authenticate") == "Bearer")
    }

    @Test(arguments: StoreKind.allCases) func configuredLifetimeIsReportedAndEnforced(store: StoreKind) async throws {
        var configuration = ServerHarness.configuration
        configuration.accessTokenTTL = 60
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let session = try await harness.session("ada")

        harness.clock.advance(by: 60)

        #expect(session.expiresIn == 60)
        #expect(
            await harness.changesResponse(token: session.accessToken).errorCode == "token_expired")
    }

    @Test(arguments: StoreKind.allCases) func refreshAfterExpiryGivesAWorkingToken(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        harness.clock.advance(by: 3_600)

        let refreshed = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)

        #expect(await harness.changesResponse(token: refreshed.accessToken).status == 200)
        #expect(refreshed.accountId == session.accountId)
        #expect(refreshed.wrappedNotesKey == session.wrappedNotesKey)
    }

    // MARK: - Rotation

    @Test(arguments: StoreKind.allCases) func refreshRotatesBothTokensAndRetiresTheOldRefreshToken(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let session = try await harness.session("ada")

        let response = await harness.refresh(session.refreshToken)
        let refreshed = try response.decoded(SessionDTO.self)
        let next = await harness.refresh(refreshed.refreshToken)

        #expect(response.status == 200)
        #expect(refreshed.accessToken != session.accessToken)
        #expect(refreshed.refreshToken != session.refreshToken)
        #expect(
            await harness.changesResponse(token: session.accessToken).errorCode == "unauthorized")
        #expect(next.status == 200)
    }

    @Test(arguments: StoreKind.allCases) func reusedRefreshTokenRevokesTheWholeSession(store: StoreKind) async throws {
        try await setUp(store)
        // A replay, not a lost reply's retry: the pair the token was rotated into was used.
        // (The retry is RefreshRetryTests'.)
        let session = try await harness.session("ada")
        let refreshed = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)
        #expect(await harness.changesResponse(token: refreshed.accessToken).status == 200)

        let replay = await harness.refresh(session.refreshToken)

        #expect(replay.status == 401)
        #expect(replay.errorCode == "invalid_refresh_token")
        #expect(
            await harness.changesResponse(token: refreshed.accessToken).errorCode == "unauthorized")
        #expect(await harness.refresh(refreshed.refreshToken).errorCode == "invalid_refresh_token")
    }

    @Test(arguments: StoreKind.allCases) func reuseRevokesOnlyThatSession(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")
        let refreshed = try await harness.refresh(laptop.refreshToken).decoded(SessionDTO.self)
        harness.clock.advance(by: 61)

        _ = await harness.refresh(laptop.refreshToken)

        #expect(await harness.refresh(refreshed.refreshToken).errorCode == "invalid_refresh_token")
        #expect(await harness.changesResponse(token: phone.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func unknownRefreshTokenIsRefused(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.refresh("not-a-token")

        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_refresh_token")
        #expect(response.header("WWW-Authenticate") == "Bearer")
    }

    // MARK: - Sign-out

    @Test(arguments: StoreKind.allCases) func signOutRevokesBothTokens(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")

        let response = await signOut(session.accessToken)

        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        #expect(
            await harness.changesResponse(token: session.accessToken).errorCode == "unauthorized")
        #expect(await harness.refresh(session.refreshToken).errorCode == "invalid_refresh_token")
        #expect(await signOut(session.accessToken).status == 401)
    }

    @Test(arguments: StoreKind.allCases) func expiredAccessTokenCanStillSignItsSessionOut(store: StoreKind) async throws
    {
        try await setUp(store)
        let session = try await harness.session("ada")
        harness.clock.advance(by: 3_600)

        #expect(await signOut(session.accessToken).status == 204)
        #expect(await harness.refresh(session.refreshToken).errorCode == "invalid_refresh_token")
    }

    @Test(arguments: StoreKind.allCases) func signOutLeavesOtherSessionsSignedIn(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")

        _ = await signOut(laptop.accessToken)

        #expect(await harness.changesResponse(token: phone.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func signOutWithoutTokenIsUnauthorized(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.server.handle(
            HTTPRequest(method: "DELETE", path: WireRoutes.currentSession))

        #expect(response.status == 401)
        #expect(response.errorCode == "unauthorized")
    }
}
