import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The recovery-key routes (issue 12, item 11): the recovery copy of the notes key, a password
/// reset proven by the recovery auth key, and replacing the recovery key; on both stores.
final class RecoveryRouteTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!
    let recoveryKey = ServerHarness.authKey("ada", password: "recovery")
    let recoveryWrapped = Data(repeating: 0xC3, count: 60)
    let newKey = ServerHarness.authKey("ada", password: "new")
    let newWrapped = Data(repeating: 0xB2, count: 60)

    /// Builds the server over `store` and registers "ada" with a recovery key.
    func setUp(_ store: StoreKind, recovery: Bool = true) async throws {
        harness = try await ServerHarness(store: store)
        var registration = ServerHarness.registration("ada")
        if recovery {
            registration.recovery = RecoveryMaterialDTO(
                authKey: recoveryKey.base64EncodedString(), wrappedNotesKey: recoveryWrapped.base64EncodedString())
        }
        let response = await harness.register(registration)
        try #require(response.status == 201, "register answered \(response.status): \(response.text)")
    }

    private func wrappedKey(_ key: Data, username: String = "ada", address: String = "") async -> HTTPResponse {
        await harness.post(
            WireRoutes.recoveryWrappedKey,
            RecoveryWrappedKeyRequestDTO(username: username, recoveryAuthKey: key.base64EncodedString()),
            address: address)
    }

    private func recover(_ key: Data, username: String = "ada", address: String = "") async -> HTTPResponse {
        await harness.post(
            WireRoutes.recoverPassword,
            RecoverAccountRequestDTO(
                username: username, recoveryAuthKey: key.base64EncodedString(),
                newAuthKey: newKey.base64EncodedString(),
                kdf: KDFParametersDTO(salt: Data(repeating: 0xA1, count: 16).base64EncodedString(), iterations: 2_000),
                wrappedNotesKey: newWrapped.base64EncodedString(), deviceName: "new phone"),
            address: address)
    }

    private func setRecovery(token: String, current: Data, recovery: Data) async -> HTTPResponse {
        await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.recovery, headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(
                    SetRecoveryRequestDTO(
                        currentAuthKey: current.base64EncodedString(),
                        recovery: RecoveryMaterialDTO(
                            authKey: recovery.base64EncodedString(),
                            wrappedNotesKey: Data(repeating: 0xD4, count: 60).base64EncodedString())))))
    }

    @Test(arguments: StoreKind.allCases) func theRightRecoveryKeyGetsTheRecoveryCopyAndChangesNothing(store: StoreKind)
        async throws
    {
        try await setUp(store)

        let response = await wrappedKey(recoveryKey)

        #expect(response.status == 200)
        #expect(
            try response.decoded(RecoveryWrappedKeyDTO.self).wrappedNotesKey == recoveryWrapped.base64EncodedString())
        #expect(await harness.signIn("ada").status == 200)
    }

    @Test(arguments: StoreKind.allCases) func aResetReplacesThePasswordSignsEveryoneOutAndKeepsTheRecoveryKey(
        store: StoreKind
    ) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")

        let response = await recover(recoveryKey)

        #expect(response.status == 200, "\(response.text)")
        let phone = try response.decoded(SessionDTO.self)
        #expect(phone.wrappedNotesKey == newWrapped.base64EncodedString())
        #expect(await harness.changesResponse(token: phone.accessToken).status == 200)
        #expect(await harness.changesResponse(token: laptop.accessToken).errorCode == "unauthorized")
        #expect(await harness.refresh(laptop.refreshToken).errorCode == "invalid_refresh_token")
        #expect(await harness.signIn("ada").errorCode == "invalid_credentials", "the old password")
        #expect(await harness.signIn("ada", authKey: newKey).status == 200)
        let kdf = try await harness.kdf("ada").decoded(KDFParametersDTO.self)
        #expect(kdf.iterations == 2_000)
        #expect(await wrappedKey(recoveryKey).status == 200, "the recovery key keeps working")
    }

    @Test(arguments: StoreKind.allCases) func aWrongRecoveryKeyChangesNothing(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let kdfBefore = await harness.kdf("ada").body

        let copy = await wrappedKey(newKey)
        let reset = await recover(newKey)

        #expect(copy.status == 401 && copy.errorCode == "invalid_credentials")
        #expect(reset.status == 401 && reset.errorCode == "invalid_credentials")
        #expect(await harness.signIn("ada").status == 200)
        #expect(await harness.kdf("ada").body == kdfBefore)
        #expect(await harness.changesResponse(token: laptop.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func anUnknownNameAndAnAccountWithoutAKeyAnswerAsAWrongKey(store: StoreKind)
        async throws
    {
        try await setUp(store, recovery: false)

        let without = await recover(recoveryKey)
        let unknown = await recover(recoveryKey, username: "nobody")

        #expect(without.status == 401 && without.errorCode == "invalid_credentials")
        #expect(unknown.status == 401 && unknown.body == without.body)
        #expect(await harness.signIn("ada").status == 200)
    }

    @Test(arguments: StoreKind.allCases) func wrongRecoveryKeysAreThrottledLikeSignIns(store: StoreKind) async throws {
        try await setUp(store)
        for _ in 0..<5 { _ = await recover(newKey, address: "10.0.0.9") }

        let locked = await recover(recoveryKey, address: "10.0.0.9")

        #expect(locked.status == 429)
        #expect(locked.headers["Retry-After"] != nil)
        #expect(
            await harness.signIn("ada", address: "10.0.0.9").status == 429,
            "one throttle for the username on that address")
        #expect(await harness.signIn("ada", address: "10.0.0.10").status == 200)
    }

    @Test(arguments: StoreKind.allCases) func aPasswordChangeKeepsTheRecoveryKey(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada")

        let changed = await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.password, headers: ["Authorization": "Bearer \(laptop.accessToken)"],
                body: WireJSON.encode(
                    ChangePasswordRequestDTO(
                        currentAuthKey: ServerHarness.authKey("ada").base64EncodedString(),
                        newAuthKey: newKey.base64EncodedString(),
                        kdf: KDFParametersDTO(
                            salt: Data(repeating: 1, count: 16).base64EncodedString(), iterations: 1_000),
                        wrappedNotesKey: newWrapped.base64EncodedString()))))

        #expect(changed.status == 204)
        #expect(await wrappedKey(recoveryKey).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func replacingTheRecoveryKeyNeedsThePasswordAndRetiresTheOldKey(
        store: StoreKind
    ) async throws {
        try await setUp(store, recovery: false)
        let laptop = try await harness.session("ada")
        let replacement = ServerHarness.authKey("ada", password: "second recovery")

        let refused = await setRecovery(token: laptop.accessToken, current: newKey, recovery: recoveryKey)
        #expect(refused.errorCode == "invalid_credentials")
        #expect(await wrappedKey(recoveryKey).status == 401)

        #expect(
            await setRecovery(token: laptop.accessToken, current: ServerHarness.authKey("ada"), recovery: recoveryKey)
                .status == 204)
        #expect(await wrappedKey(recoveryKey).status == 200)
        #expect(
            await setRecovery(token: laptop.accessToken, current: ServerHarness.authKey("ada"), recovery: replacement)
                .status == 204)

        #expect(await wrappedKey(recoveryKey).status == 401, "the old key stopped working")
        let copy = try await wrappedKey(replacement).decoded(RecoveryWrappedKeyDTO.self)
        #expect(copy.wrappedNotesKey == Data(repeating: 0xD4, count: 60).base64EncodedString())
        #expect(await harness.changesResponse(token: laptop.accessToken).status == 200, "sessions are untouched")
    }

    @Test func malformedRecoveryBodiesNameTheField() async throws {
        try await setUp(.sqlite)
        var registration = ServerHarness.registration("bob")
        registration.recovery = RecoveryMaterialDTO(
            authKey: "short", wrappedNotesKey: recoveryWrapped.base64EncodedString())

        let badRegistration = await harness.register(registration)
        let badReset = await harness.post(WireRoutes.recoverPassword, ["username": "ada"])

        #expect(badRegistration.status == 400)
        #expect(badRegistration.text.contains("recovery.authKey"))
        #expect(badReset.status == 400)
        #expect(badReset.text.contains("recoveryAuthKey"))
        #expect(await harness.signIn("bob").errorCode == "invalid_credentials", "nothing was stored")
    }

    @Test(arguments: StoreKind.allCases) func theStoreKeepsTheRecoveryColumnsAndChecksTheExpectedHashes(
        store: StoreKind
    )
        async throws
    {
        try await setUp(store)
        let storage = harness.server.storage
        let account = try #require(try await storage.account(username: "ada"))
        let recovery = try #require(account.recovery)
        #expect(recovery.wrappedNotesKey == recoveryWrapped)
        #expect(recovery.authKeyHash.count == 32 && recovery.authKeyHash != recoveryKey, "only a hash is stored")
        let tokens = SessionTokenHashes(
            accessHash: "a1", accessExpiresAt: harness.clock.now.addingTimeInterval(60), refreshHash: "r1",
            issuedAt: harness.clock.now)

        let stale = try await storage.recoverCredentials(
            account: account.id, expectedRecoveryAuthHash: Data(count: 32), to: account.credentials,
            deviceName: "x", tokens: tokens, now: harness.clock.now)
        let wrongPassword = try await storage.replaceRecovery(
            account: account.id, expectedAuthKeyHash: Data(count: 32), with: recovery)

        #expect(stale == nil)
        #expect(wrongPassword == false)
        #expect(try await storage.account(username: "ada") == account)
        #expect(try await storage.session(accessHash: "a1") == nil)
    }
}
