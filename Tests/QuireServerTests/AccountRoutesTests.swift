import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Registration, the kdf route and signing in: issue 4's accounts, through `handle`.
final class AccountRoutesTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
    }

    // MARK: - Registration and kdf

    @Test(arguments: StoreKind.allCases) func registeredAccountsKDFRouteReturnsItsStoredParameters(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let salt = Data((0..<24).map { UInt8($0) })
        let created = await harness.register(
            ServerHarness.registration("ada", salt: salt, iterations: 4_321))

        let response = await harness.kdf("ada")

        #expect(created.status == 201)
        let id = try created.decoded(CreateAccountResponseDTO.self).accountId
        #expect(UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(response.status == 200)
        let kdf = try response.decoded(KDFParametersDTO.self)
        #expect(kdf == KDFParametersDTO(salt: salt.base64EncodedString(), iterations: 4_321))
    }

    @Test(arguments: StoreKind.allCases) func usernamesAreCaseInsensitive(store: StoreKind) async throws {
        try await setUp(store)
        _ = await harness.register(ServerHarness.registration("Ada.Lovelace"))

        let again = await harness.register(ServerHarness.registration("ada.lovelace"))
        let kdf = try await harness.kdf("ADA.LOVELACE").decoded(KDFParametersDTO.self)

        #expect(again.status == 409)
        #expect(again.errorCode == "username_taken")
        #expect(kdf.iterations == 1_000)
        #expect(
            await harness.signIn("ada.LOVELACE", authKey: ServerHarness.authKey("Ada.Lovelace"))
                .status == 200)
    }

    @Test(arguments: StoreKind.allCases) func duplicateUsernameIsRefusedAndKeepsTheFirstAccount(store: StoreKind)
        async throws
    {
        try await setUp(store)
        _ = await harness.register(ServerHarness.registration("ada"))

        let again = await harness.register(
            ServerHarness.registration("ada", authKey: ServerHarness.authKey("ada", password: "x")))

        #expect(again.status == 409)
        #expect(again.errorCode == "username_taken")
        #expect(await harness.signIn("ada").status == 200)
        #expect(
            await harness.signIn("ada", authKey: ServerHarness.authKey("ada", password: "x"))
                .status == 401)
    }

    @Test(arguments: StoreKind.allCases) func unknownUsernameGetsStableFakeParametersThatSurviveARestart(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let first = try await harness.kdf("nobody").decoded(KDFParametersDTO.self)
        let second = try await harness.kdf("nobody").decoded(KDFParametersDTO.self)
        let other = try await harness.kdf("somebody").decoded(KDFParametersDTO.self)
        let restarted = try await harness.restarted()
        let afterRestart = try await restarted.handle(
            HTTPRequest(method: "GET", path: WireRoutes.kdf("nobody"))
        ).decoded(KDFParametersDTO.self)
        await restarted.shutDown()

        #expect(first == second)
        #expect(first == afterRestart)
        #expect(first.salt != other.salt)
        #expect(first.algorithm == "pbkdf2-sha256")
        #expect(first.iterations == 600_000)
        #expect(Data(base64Encoded: first.salt)?.count == 16)
    }

    @Test(arguments: StoreKind.allCases) func fakeParametersDifferBetweenDatabases(store: StoreKind) async throws {
        try await setUp(store)
        let elsewhere = try await ServerHarness(store: store)

        let here = try await harness.kdf("nobody").decoded(KDFParametersDTO.self)
        let there = try await elsewhere.kdf("nobody").decoded(KDFParametersDTO.self)

        #expect(here.salt != there.salt)
    }

    @Test(arguments: ["a b", "", String(repeating: "a", count: 65), "ädа", "x@y", "K\u{212A}"])
    func malformedUsernameInKDFPathIsRefused(_ name: String) async throws {
        try await setUp(.sqlite)
        let response = await harness.kdf(name)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_username")
    }

    @Test(arguments: StoreKind.allCases) func kdfRouteAcceptsOnlyGet(store: StoreKind) async throws {
        try await setUp(store)
        let response = await harness.server.handle(
            HTTPRequest(method: "POST", path: WireRoutes.kdf("ada")))

        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET")
    }

    // MARK: - Signing in

    @Test(arguments: StoreKind.allCases) func rightAuthKeyGetsASessionWithTheWrappedNotesKey(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let wrapped = Data((0..<44).map { UInt8($0) })
        let created = try await harness.register(
            ServerHarness.registration("ada", wrappedNotesKey: wrapped)
        ).decoded(CreateAccountResponseDTO.self)

        let response = await harness.signIn("ada")

        #expect(response.status == 200)
        let session = try response.decoded(SessionDTO.self)
        #expect(session.accountId == created.accountId)
        #expect(session.wrappedNotesKey == wrapped.base64EncodedString())
        #expect(session.expiresIn == 900)
        #expect(Data(base64URLEncoded: session.accessToken)?.count == 32)
        #expect(Data(base64URLEncoded: session.refreshToken)?.count == 32)
        #expect(session.accessToken != session.refreshToken)
    }

    @Test(arguments: StoreKind.allCases) func wrongKeyAndUnknownUserGetTheIdenticalRefusal(store: StoreKind)
        async throws
    {
        try await setUp(store)
        _ = await harness.register(ServerHarness.registration("ada"))

        let wrong = await harness.signIn(
            "ada", authKey: ServerHarness.authKey("ada", password: "no"))
        let unknown = await harness.signIn("bob")

        #expect(wrong.status == 401)
        #expect(wrong.errorCode == "invalid_credentials")
        #expect(unknown.status == wrong.status)
        #expect(unknown.body == wrong.body)
        #expect(unknown.headers == wrong.headers)
    }

    @Test(arguments: StoreKind.allCases) func sessionTokenWorksOnNoteRoutes(store: StoreKind) async throws {
        try await setUp(store)
        let token = try await harness.token("ada")

        let put = await harness.put(
            ServerHarness.uuid(), payload: "sealed", base: nil, token: token)

        #expect(put.status == 200)
        #expect(try await harness.changes(token: token).changes.map(\.payload) == ["sealed"])
    }

    @Test(arguments: StoreKind.allCases) func eachSignInIsItsOwnSessionOnTheSameNotes(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")
        _ = await harness.put(
            ServerHarness.uuid(), payload: "shared", base: nil, token: laptop.accessToken)

        #expect(laptop.accessToken != phone.accessToken)
        #expect(laptop.accountId == phone.accountId)
        #expect(try await harness.changes(token: phone.accessToken).changes.count == 1)
    }

    // MARK: - What the database holds

    @Test(arguments: StoreKind.allCases) func databaseNeverHoldsAuthKeysOrTokensInPlain(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        let newKey = ServerHarness.authKey("ada", password: "new")
        _ = await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.password,
                headers: ["Authorization": "Bearer \(session.accessToken)"],
                body: WireJSON.encode(
                    ChangePasswordRequestDTO(
                        currentAuthKey: ServerHarness.authKey("ada").base64EncodedString(),
                        newAuthKey: newKey.base64EncodedString(),
                        kdf: KDFParametersDTO(
                            salt: Data(repeating: 3, count: 16).base64EncodedString(),
                            iterations: 1_000),
                        wrappedNotesKey: Data(repeating: 4, count: 60).base64EncodedString()))))
        let refreshed = try await harness.refresh(session.refreshToken).decoded(SessionDTO.self)

        let bytes = try await harness.databaseBytes()

        let secrets: [Data] = [
            ServerHarness.authKey("ada"), newKey,
            Data(ServerHarness.authKey("ada").base64EncodedString().utf8),
            Data(newKey.base64EncodedString().utf8),
            Data(session.accessToken.utf8), Data(session.refreshToken.utf8),
            Data(refreshed.accessToken.utf8), Data(refreshed.refreshToken.utf8),
        ]
        for secret in secrets {
            #expect(bytes.range(of: secret) == nil)
        }
    }
}
