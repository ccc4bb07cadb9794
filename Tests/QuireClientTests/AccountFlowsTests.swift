import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireWire
import Testing

/// Sign-up, sign-in from a second device, password change and sign-out against the fake server.
/// Every derivation uses 1,000 iterations so the suite stays fast.
struct AccountFlowsTests {
    static let url = URL(string: "http://quire.test")!
    static let iterations = 1_000

    func register(_ server: AccountsFakeServer, _ user: String = "ada", password: String = "correct horse")
        async throws -> AccountSession
    {
        try await AccountFlows.register(
            serverURL: Self.url, username: user, password: password, deviceName: "laptop", transport: server,
            iterations: Self.iterations
        ).session
    }

    func login(_ server: AccountsFakeServer, _ user: String = "ada", password: String = "correct horse")
        async throws -> AccountSession
    {
        try await AccountFlows.login(
            serverURL: Self.url, username: user, password: password, deviceName: "phone", transport: server,
            minimumIterations: Self.iterations)
    }

    @Test func secondDeviceUnwrapsTheSameNotesKeyAndOpensTheFirstDevicesPayload() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)
        let id = NoteID()
        let payload = try SealedPayloadCodec(notesKey: try laptop.notesKeyValue(), account: laptop.account)
            .seal(NoteContent(title: "Plans", body: "call mum"), noteID: id)

        let phone = try await login(server)

        #expect(phone.accountId == laptop.accountId)
        #expect(try phone.notesKeyValue() == laptop.notesKeyValue())
        #expect(phone.accessToken != laptop.accessToken)
        #expect(phone.isSignedIn)
        let opened = try SealedPayloadCodec(notesKey: try phone.notesKeyValue(), account: phone.account)
            .open(payload, noteID: id)
        #expect(opened == NoteContent(title: "Plans", body: "call mum"))
    }

    @Test func serverNeverSeesThePasswordOrTheNotesKey() async throws {
        let server = AccountsFakeServer()
        let session = try await register(server, password: "hunter2 orbit staple")
        let key = try session.notesKeyValue().data.base64EncodedString()

        let bodies = await server.requests.compactMap(\.body).map { String(decoding: $0, as: UTF8.self) }

        #expect(!bodies.isEmpty)
        for body in bodies {
            #expect(!body.contains("hunter2"))
            #expect(!body.contains(key))
        }
    }

    @Test func wrongPasswordIsInvalidCredentials() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)

        await #expect(throws: AccountError.invalidCredentials) { try await login(server, password: "wrong") }
    }

    @Test func repeatedWrongPasswordsAreThrottled() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)
        for _ in 0..<AccountsFakeServer.throttleAfter {
            _ = try? await login(server, password: "wrong")
        }

        let error = try await #require(throws: AccountError.self) { try await login(server) }
        #expect(error == .throttled)
        #expect(error.retryAfter == 30)
    }

    @Test func takenUsernameIsRefused() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)

        await #expect(throws: AccountError.usernameTaken) {
            try await register(server, password: "another good phrase")
        }
    }

    @Test(arguments: [
        KDFParametersDTO(salt: Data(count: 16).base64EncodedString(), iterations: 10),
        KDFParametersDTO(algorithm: "md5-crypt", salt: Data(count: 16).base64EncodedString(), iterations: 1_000),
        KDFParametersDTO(salt: Data(count: 4).base64EncodedString(), iterations: 1_000),
        KDFParametersDTO(salt: Data(count: 16).base64EncodedString(), iterations: 1_000_000_000),
    ])
    func signInRefusesUnsafeKeyDerivationBeforeSendingAnyKey(kdf: KDFParametersDTO) async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)
        await server.setKDFOverride(kdf)

        await #expect(throws: AccountError.unsafeKeyDerivation) { try await login(server) }
        let sessionRequests = await server.requests.filter { $0.path == WireRoutes.sessions }
        #expect(sessionRequests.count == 1, "only the registration's own sign-in")
    }

    @Test func defaultMinimumRefusesTheTestIterationCount() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)

        await #expect(throws: AccountError.unsafeKeyDerivation) {
            try await AccountFlows.login(
                serverURL: Self.url, username: "ada", password: "correct horse", deviceName: "phone",
                transport: server)
        }
    }

    @Test func tamperedWrappedKeyIsWrongPasswordOrCorruptedKey() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)
        // A server that hands back a key wrapped for another username (its wrong associated data).
        _ = try await register(server, "bob")
        let bobWrapped = try #require(await server.accounts["bob"]?.wrappedNotesKey)
        await server.replaceWrappedKey(of: "ada", with: bobWrapped)

        let error = try await #require(throws: AccountError.self) { try await login(server) }
        #expect(error == .keyUnwrapFailed)
        #expect(error.message.contains("Wrong password or corrupted key"))
    }

    @Test func passwordChangeKeepsTheNotesKeyAndRetiresTheOldPassword() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)
        let phone = try await login(server)
        let id = NoteID()
        let before = try SealedPayloadCodec(notesKey: try laptop.notesKeyValue(), account: laptop.account)
            .seal(NoteContent(title: "Old", body: "sealed before"), noteID: id)

        let changed = try await AccountFlows.changePassword(
            session: laptop, currentPassword: "correct horse", newPassword: "battery staple", transport: server,
            iterations: Self.iterations)

        #expect(changed.kdf.salt != laptop.kdf.salt)
        #expect(changed.accessToken == laptop.accessToken, "this session stays signed in")
        #expect(try changed.notesKeyValue() == laptop.notesKeyValue())
        await #expect(throws: AccountError.invalidCredentials) { try await login(server) }
        let relogged = try await login(server, password: "battery staple")
        #expect(try relogged.notesKeyValue() == laptop.notesKeyValue())
        let opened = try SealedPayloadCodec(notesKey: try relogged.notesKeyValue(), account: relogged.account)
            .open(before, noteID: id)
        #expect(opened.body == "sealed before")
        // The phone's session was signed out by the server: its refresh token no longer works.
        await #expect(throws: AccountError.invalidCredentials) {
            try await AccountsAPIClient(transport: server).refresh(refreshToken: try #require(phone.refreshToken))
        }
    }

    @Test func passwordChangeWithTheWrongCurrentPasswordChangesNothing() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)

        await #expect(throws: AccountError.invalidCredentials) {
            try await AccountFlows.changePassword(
                session: laptop, currentPassword: "guess", newPassword: "battery staple", transport: server,
                iterations: Self.iterations)
        }
        _ = try await login(server)
    }

    @Test func passwordChangeRefreshesAnExpiredAccessTokenOnce() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)
        await server.expireAccessTokens()

        let changed = try await AccountFlows.changePassword(
            session: laptop, currentPassword: "correct horse", newPassword: "battery staple", transport: server,
            iterations: Self.iterations)

        #expect(await server.refreshRequests == 1)
        #expect(changed.refreshToken != laptop.refreshToken)
        _ = try await login(server, password: "battery staple")
    }

    @Test func signOutEndsTheSessionOnTheServer() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)

        let outcome = await AccountFlows.logout(session: laptop, transport: server)

        #expect(outcome == .confirmed)
        #expect(await server.sessionCount(username: "ada") == 0)
    }

    @Test func signOutWithoutTheServerReportsItButDoesNotThrow() async throws {
        let server = AccountsFakeServer()
        let laptop = try await register(server)
        await server.setUnreachable(true)

        let outcome = await AccountFlows.logout(session: laptop, transport: server)

        #expect(outcome == .notConfirmed(.unreachable))
    }
}
