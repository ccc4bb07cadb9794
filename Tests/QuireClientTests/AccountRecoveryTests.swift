import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireWire
import Testing

/// The recovery key (issue 12, item 11) and password strength at the flows (item 10), against
/// the fake server, which records every request it is sent. 1,000 iterations keep it fast.
struct AccountRecoveryTests {
    static let url = URL(string: "http://quire.test")!
    static let iterations = 1_000
    static let password = "correct horse"

    func register(_ server: AccountsFakeServer, password: String = Self.password) async throws -> AccountRegistration {
        try await AccountFlows.register(
            serverURL: Self.url, username: "ada", password: password, deviceName: "laptop", transport: server,
            iterations: Self.iterations)
    }

    func recover(_ server: AccountsFakeServer, _ key: RecoveryKey, newPassword: String = "battery staple")
        async throws -> AccountSession
    {
        try await AccountFlows.recover(
            serverURL: Self.url, username: "ada", recoveryKey: key, newPassword: newPassword, deviceName: "phone",
            transport: server, iterations: Self.iterations)
    }

    func login(_ server: AccountsFakeServer, password: String) async throws -> AccountSession {
        try await AccountFlows.login(
            serverURL: Self.url, username: "ada", password: password, deviceName: "tablet", transport: server,
            minimumIterations: Self.iterations)
    }

    @Test(arguments: ["a", "password", "Password123!", "qwertyuiop", "adaadaadaada1", "quire-notes-2024"])
    func aWeakPasswordIsRefusedBeforeAnythingIsSent(password: String) async throws {
        let server = AccountsFakeServer()

        let error = try await #require(throws: AccountError.self) { try await register(server, password: password) }

        #expect(error == .weakPassword)
        #expect(error.message.hasPrefix("The password is too weak: "))
        #expect(await server.requests.isEmpty)
    }

    @Test func theRecoveryKeyResetsThePasswordAndTheNotesStillOpen() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)
        let laptop = registration.session
        let id = NoteID()
        let sealed = try SealedPayloadCodec(notesKey: try laptop.notesKeyValue(), account: laptop.account)
            .seal(NoteContent(title: "Plans", body: "sealed before"), noteID: id)

        let phone = try await recover(server, registration.recoveryKey)

        #expect(phone.isSignedIn)
        #expect(try phone.notesKeyValue() == laptop.notesKeyValue())
        let opened = try SealedPayloadCodec(notesKey: try phone.notesKeyValue(), account: phone.account)
            .open(sealed, noteID: id)
        #expect(opened.body == "sealed before")
        await #expect(throws: AccountError.invalidCredentials) { try await login(server, password: Self.password) }
        _ = try await login(server, password: "battery staple")
        await #expect(throws: AccountError.invalidCredentials, "the laptop was signed out") {
            try await AccountsAPIClient(transport: server).refresh(refreshToken: try #require(laptop.refreshToken))
        }
        _ = try await recover(server, registration.recoveryKey, newPassword: "third good phrase")
    }

    @Test func theServerIsSentOnlyValuesDerivedFromTheRecoveryKey() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)
        let key = registration.recoveryKey
        _ = try await recover(server, key)

        let bodies = await server.requests.compactMap(\.body).map { String(decoding: $0, as: UTF8.self) }
        let secrets = [
            key.groupedText, key.groupedText.replacingOccurrences(of: "-", with: ""), key.data.base64EncodedString(),
            key.data.base64URLEncodedString(), key.wrappingKey.data.base64EncodedString(),
            try registration.session.notesKeyValue().data.base64EncodedString(), Self.password, "battery staple",
        ]
        #expect(bodies.count >= 4)
        for body in bodies {
            for secret in secrets { #expect(!body.contains(secret)) }
        }
        let registered = try #require(await server.accounts["ada"]?.recovery)
        #expect(registered.authKey == key.authKey.data.base64EncodedString(), "only the derived auth key is sent")
    }

    @Test func aWrongRecoveryKeyIsRefusedAndChangesNothing() async throws {
        let server = AccountsFakeServer()
        _ = try await register(server)

        let error = try await #require(throws: AccountError.self) { try await recover(server, RecoveryKey.random()) }

        #expect(error == .invalidCredentials)
        #expect(error.message.contains("recovery key is wrong"))
        #expect(await server.requests.filter { $0.path == WireRoutes.recoverPassword }.isEmpty)
        _ = try await login(server, password: Self.password)
    }

    @Test func aPasswordChangeKeepsTheRecoveryKeyWorking() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)

        _ = try await AccountFlows.changePassword(
            session: registration.session, currentPassword: Self.password, newPassword: "battery staple",
            transport: server, iterations: Self.iterations)
        let phone = try await recover(server, registration.recoveryKey, newPassword: "a third good phrase")

        #expect(try phone.notesKeyValue() == registration.session.notesKeyValue())
    }

    @Test func aWeakNewPasswordIsRefusedAtPasswordChangeBeforeAnythingIsSent() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)
        let before = await server.requests.count

        await #expect(throws: AccountError.weakPassword) {
            try await AccountFlows.changePassword(
                session: registration.session, currentPassword: Self.password, newPassword: "12345678",
                transport: server, iterations: Self.iterations)
        }
        #expect(await server.requests.count == before)
    }

    @Test func aNewRecoveryKeyReplacesTheOldOne() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)

        let made = try await AccountFlows.replaceRecoveryKey(
            session: registration.session, currentPassword: Self.password, transport: server)

        #expect(made.recoveryKey != registration.recoveryKey)
        await #expect(throws: AccountError.invalidCredentials) { try await recover(server, registration.recoveryKey) }
        let phone = try await recover(server, made.recoveryKey)
        #expect(try phone.notesKeyValue() == registration.session.notesKeyValue())
    }

    @Test func aNewRecoveryKeyNeedsTheRightPassword() async throws {
        let server = AccountsFakeServer()
        let registration = try await register(server)

        await #expect(throws: AccountError.invalidCredentials) {
            try await AccountFlows.replaceRecoveryKey(
                session: registration.session, currentPassword: "not the password", transport: server)
        }
        _ = try await recover(server, registration.recoveryKey)
    }
}
