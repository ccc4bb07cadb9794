import Foundation
import QuireClient
import QuireWire
import Testing

/// How the accounts client builds requests and maps every answer to an ``AccountError``.
struct AccountsAPIClientTests {
    static let login = CreateSessionRequestDTO(username: "ada", authKey: "a2V5", deviceName: "laptop")
    static let register = CreateAccountRequestDTO(
        username: "ada", authKey: "a2V5", kdf: KDFParametersDTO(salt: "c2FsdA==", iterations: 1_000),
        wrappedNotesKey: "d3JhcA==")

    static func errorBody(_ code: String, _ message: String) -> String {
        String(decoding: WireJSON.encode(ErrorResponseDTO(code: code, message: message)), as: UTF8.self)
    }

    @Test func usernameIsOneEncodedPathSegment() async throws {
        let transport = AccountsStubTransport(
            status: 200, body: #"{"algorithm":"pbkdf2-sha256","salt":"c2FsdA==","iterations":1000}"#)
        let client = AccountsAPIClient(transport: transport)

        let kdf = try await client.kdf(username: "a/b c?é")

        #expect(kdf.iterations == 1_000)
        #expect(transport.requests.first?.path == "/v1/accounts/a%2Fb%20c%3F%C3%A9/kdf")
        #expect(transport.requests.first?.method == "GET")
    }

    @Test func signInSendsNoBearerTokenAndSignOutDoes() async throws {
        let transport = AccountsStubTransport(status: 204)
        let client = AccountsAPIClient(transport: transport)

        _ = try? await client.login(Self.login)
        try await client.logout(accessToken: "tok-1")

        let requests = transport.requests
        #expect(requests.count == 2)
        #expect(requests[0].headers["Authorization"] == nil)
        #expect(requests[0].path == WireRoutes.sessions)
        #expect(requests[1].headers["Authorization"] == "Bearer tok-1")
        #expect(requests[1].method == "DELETE")
        #expect(requests[1].path == WireRoutes.currentSession)
    }

    @Test func takenUsernameIsUsernameTaken() async {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(status: 409, body: Self.errorBody("username_taken", "taken")))

        await #expect(throws: AccountError.usernameTaken) { try await client.register(Self.register) }
    }

    @Test func refusedSignInIsInvalidCredentials() async {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(status: 401, body: Self.errorBody("invalid_credentials", "no")))

        await #expect(throws: AccountError.invalidCredentials) { try await client.login(Self.login) }
    }

    @Test func throttledSignInCarriesRetryAfter() async throws {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(
                status: 429, body: Self.errorBody("too_many_attempts", "slow"), headers: ["Retry-After": "42"]))

        let error = try await #require(throws: AccountError.self) { try await client.login(Self.login) }
        #expect(error == .throttled)
        #expect(error.retryAfter == 42)
        #expect(error.isRetryable)
    }

    @Test(arguments: [500, 502, 503, 408])
    func serverTroubleIsTransient(status: Int) async {
        let client = AccountsAPIClient(transport: AccountsStubTransport(status: status))

        await #expect(throws: AccountError.transient) { try await client.login(Self.login) }
    }

    @Test func refusedConnectionIsUnreachable() async {
        let client = AccountsAPIClient(transport: AccountsStubTransport(.failure(.cannotConnectToHost)))

        await #expect(throws: AccountError.unreachable) { try await client.kdf(username: "ada") }
    }

    @Test func timeoutIsTransient() async {
        let client = AccountsAPIClient(transport: AccountsStubTransport(.failure(.timedOut)))

        await #expect(throws: AccountError.transient) { try await client.kdf(username: "ada") }
    }

    @Test func otherClientErrorIsRefusedInTheServersWords() async throws {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(
                status: 422, body: Self.errorBody("invalid_username", "Usernames are 3 to 32 letters.")))

        let error = try await #require(throws: AccountError.self) { try await client.register(Self.register) }
        #expect(error == .refused)
        #expect(error.code == "invalid_username")
        #expect(error.status == 422)
        #expect(error.message == "Usernames are 3 to 32 letters.")
    }

    @Test func unreadableAnswerIsInvalidResponse() async {
        let client = AccountsAPIClient(transport: AccountsStubTransport(status: 200, body: "<html>"))

        await #expect(throws: AccountError.invalidResponse) { try await client.login(Self.login) }
    }

    @Test func refusedTokenOnABearerRouteIsSignedOut() async {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(status: 401, body: Self.errorBody("unauthorized", "bad token")))
        let request = ChangePasswordRequestDTO(
            currentAuthKey: "a", newAuthKey: "b", kdf: Self.register.kdf, wrappedNotesKey: "c")

        await #expect(throws: AccountError.signedOut) {
            try await client.changePassword(request, accessToken: "old")
        }
    }

    @Test func wrongCurrentPasswordOnABearerRouteIsInvalidCredentials() async {
        let client = AccountsAPIClient(
            transport: AccountsStubTransport(status: 401, body: Self.errorBody("invalid_credentials", "no")))
        let request = ChangePasswordRequestDTO(
            currentAuthKey: "a", newAuthKey: "b", kdf: Self.register.kdf, wrappedNotesKey: "c")

        await #expect(throws: AccountError.invalidCredentials) {
            try await client.changePassword(request, accessToken: "tok")
        }
    }
}
