import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `PUT /v1/accounts/current/password`: new key, kdf and wrapped notes key; other sessions end.
final class PasswordChangeTests {
    // Set by `setUp(_:)`, every test's first step (a suite's init cannot take the store).
    private(set) var harness: ServerHarness!
    let oldKey = ServerHarness.authKey("ada")
    let newKey = ServerHarness.authKey("ada", password: "new")
    let newSalt = Data(repeating: 0xA1, count: 16)
    let newWrapped = Data(repeating: 0xB2, count: 60)

    /// Builds the server over `store`.
    func setUp(_ store: StoreKind) async throws {
        harness = try await ServerHarness(store: store)
    }

    private func change(token: String, current: Data, address: String = "") async -> HTTPResponse {
        await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.password,
                headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(
                    ChangePasswordRequestDTO(
                        currentAuthKey: current.base64EncodedString(),
                        newAuthKey: newKey.base64EncodedString(),
                        kdf: KDFParametersDTO(
                            salt: newSalt.base64EncodedString(), iterations: 2_000),
                        wrappedNotesKey: newWrapped.base64EncodedString())),
                remoteAddress: address))
    }

    @Test(arguments: StoreKind.allCases) func changeSwapsKeysAndSignsOutOnlyTheOtherSessions(store: StoreKind)
        async throws
    {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")

        let response = await change(token: laptop.accessToken, current: oldKey)

        #expect(response.status == 204)
        #expect(await harness.signIn("ada", authKey: oldKey).errorCode == "invalid_credentials")
        let fresh = try await harness.signIn("ada", authKey: newKey).decoded(SessionDTO.self)
        #expect(fresh.wrappedNotesKey == newWrapped.base64EncodedString())
        let kdf = try await harness.kdf("ada").decoded(KDFParametersDTO.self)
        #expect(kdf == KDFParametersDTO(salt: newSalt.base64EncodedString(), iterations: 2_000))
        #expect(await harness.changesResponse(token: laptop.accessToken).status == 200)
        #expect(await harness.refresh(laptop.refreshToken).status == 200)
        #expect(await harness.changesResponse(token: phone.accessToken).errorCode == "unauthorized")
        #expect(await harness.refresh(phone.refreshToken).errorCode == "invalid_refresh_token")
    }

    @Test(arguments: StoreKind.allCases) func wrongCurrentKeyChangesNothing(store: StoreKind) async throws {
        try await setUp(store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")
        let kdfBefore = await harness.kdf("ada").body

        let response = await change(token: laptop.accessToken, current: newKey)

        #expect(response.status == 401)
        #expect(response.errorCode == "invalid_credentials")
        #expect(await harness.signIn("ada", authKey: oldKey).status == 200)
        #expect(await harness.kdf("ada").body == kdfBefore)
        #expect(await harness.changesResponse(token: phone.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func wrongCurrentKeysCountTowardTheThrottle(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        for _ in 0..<5 {
            _ = await change(token: session.accessToken, current: newKey, address: "10.0.0.9")
        }

        let locked = await change(token: session.accessToken, current: oldKey, address: "10.0.0.9")
        let signIn = await harness.signIn("ada", address: "10.0.0.9")
        let elsewhere = await harness.signIn("ada", address: "10.0.0.10")

        #expect(locked.status == 429)
        #expect(locked.header("Retry-After") != nil)
        #expect(signIn.status == 429, "one throttle for the username on that address")
        #expect(elsewhere.status == 200, "the owner on another address is not slowed")
    }

    @Test(arguments: StoreKind.allCases) func changeNeedsAValidAccessToken(store: StoreKind) async throws {
        try await setUp(store)
        let session = try await harness.session("ada")
        harness.clock.advance(by: 901)

        let expired = await change(token: session.accessToken, current: oldKey)
        let missing = await change(token: "nope", current: oldKey)

        #expect(expired.errorCode == "token_expired")
        #expect(missing.errorCode == "unauthorized")
        #expect(await harness.signIn("ada", authKey: oldKey).status == 200)
    }
}
