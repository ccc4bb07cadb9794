import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `GET /v1/sessions` lists the account's signed-in devices, and `DELETE /v1/sessions/{id}`
/// signs one out from another. On both stores.
struct SessionListTests {
    @Test(arguments: StoreKind.allCases) func listShowsEachDeviceAndWhichIsCurrent(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let laptop = try await harness.session("ada", device: "laptop")
        harness.clock.advance(by: 60)
        _ = try await harness.session("ada", device: "phone")
        _ = try await harness.session("bob", device: "bob's")
        harness.clock.advance(by: 60)
        _ = try await harness.refresh(laptop.refreshToken).decoded(SessionDTO.self)

        let list = try await harness.sessionList(try await harness.session("ada", device: "tablet").accessToken)

        #expect(list.sessions.map(\.deviceName) == ["laptop", "phone", "tablet"])
        #expect(list.sessions.map(\.current) == [false, false, true])
        let first = try #require(list.sessions.first)
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(first.lastUsedAt == Date(timeIntervalSince1970: 1_800_000_120))
        #expect(Set(list.sessions.map(\.id)).count == 3)
        #expect(list.sessions.allSatisfy { $0.id.count == 16 && $0.id.allSatisfy(\.isHexDigit) })
    }

    @Test(arguments: StoreKind.allCases) func revokedSessionIsRefusedAtItsNextRequest(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let laptop = try await harness.session("ada", device: "laptop")
        let phone = try await harness.session("ada", device: "phone")
        let phoneID = try #require(
            try await harness.sessionList(laptop.accessToken).sessions.first { $0.deviceName == "phone" }?.id)

        let revoked = await harness.deleteSession(phoneID, token: laptop.accessToken)

        #expect(revoked.status == 204)
        #expect(await harness.changesResponse(token: phone.accessToken).status == 401)
        #expect(await harness.refresh(phone.refreshToken).errorCode == "invalid_refresh_token")
        #expect(try await harness.sessionList(laptop.accessToken).sessions.map(\.deviceName) == ["laptop"])
        #expect(await harness.changesResponse(token: laptop.accessToken).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func anotherAccountsSessionIsNotFound(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let ada = try await harness.session("ada")
        let bob = try await harness.session("bob")
        let bobsID = try #require(try await harness.sessionList(bob.accessToken).sessions.first?.id)

        let response = await harness.deleteSession(bobsID, token: ada.accessToken)

        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        #expect(await harness.changesResponse(token: bob.accessToken).status == 200)
    }

    @Test(arguments: ["0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "zzzzzzzzzzzzzzzz"])
    func malformedSessionIDIsABadRequest(id: String) async throws {
        let harness = try ServerHarness()
        let ada = try await harness.session("ada")

        let response = await harness.deleteSession(id, token: ada.accessToken)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_request")
    }

    @Test func listAndRevokeNeedABearerToken() async throws {
        let harness = try ServerHarness()

        #expect(await harness.server.handle(HTTPRequest(method: "GET", path: WireRoutes.sessions)).status == 401)
        #expect(await harness.deleteSession("0123456789abcdef", token: "nope").status == 401)
        let put = await harness.server.handle(HTTPRequest(method: "PUT", path: WireRoutes.session("0123456789abcdef")))
        #expect(put.status == 405)
    }
}

extension ServerHarness {
    /// `GET /v1/sessions` with `token`; fails the test unless it answers 200.
    func sessionList(_ token: String) async throws -> SessionListDTO {
        let response = await server.handle(
            HTTPRequest(method: "GET", path: WireRoutes.sessions, headers: ["Authorization": "Bearer \(token)"]))
        try #require(response.status == 200, "GET /v1/sessions answered \(response.status): \(response.text)")
        return try response.decoded(SessionListDTO.self)
    }

    func deleteSession(_ id: String, token: String) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "DELETE", path: WireRoutes.session(id), headers: ["Authorization": "Bearer \(token)"]))
    }
}
