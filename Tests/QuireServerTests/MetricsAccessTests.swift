import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `/metrics` is not for the public internet (issue 12, 9): without a token it answers loopback
/// clients only; with ``NotesServerConfiguration/metricsToken`` it answers whoever sends
/// `Authorization: Bearer TOKEN`, and nobody else.
struct MetricsAccessTests {
    private func scrape(
        _ harness: ServerHarness, from address: String, authorization: String? = nil
    ) async -> HTTPResponse {
        let headers = authorization.map { ["Authorization": $0] } ?? [:]
        return await harness.server.handle(
            HTTPRequest(method: "GET", path: "/metrics", headers: headers, remoteAddress: address))
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.2", "::1", "::ffff:127.0.0.1"])
    func withoutATokenLoopbackClientsScrape(_ address: String) async throws {
        let harness = try ServerHarness()

        #expect(await scrape(harness, from: address).status == 200)
    }

    @Test(arguments: ["203.0.113.7", "10.0.0.2", "::ffff:10.0.0.2", "2001:db8::1", ""])
    func withoutATokenOtherClientsAreRefused(_ address: String) async throws {
        let harness = try ServerHarness()

        let response = await scrape(harness, from: address)

        #expect(response.status == 403)
        #expect(response.errorCode == "forbidden")
        #expect(response.header("Content-Type") == "application/json")
    }

    @Test func withATokenOnlyTheTokenScrapesFromAnywhere() async throws {
        var configuration = ServerHarness.configuration
        configuration.metricsToken = "scrape-7c1e"
        let harness = try ServerHarness(configuration: configuration)

        let right = await scrape(harness, from: "203.0.113.7", authorization: "Bearer scrape-7c1e")
        let wrong = await scrape(harness, from: "203.0.113.7", authorization: "Bearer scrape-7c1f")
        let loopbackWithout = await scrape(harness, from: "127.0.0.1")

        #expect(right.status == 200)
        #expect(wrong.status == 401 && wrong.errorCode == "unauthorized")
        #expect(loopbackWithout.status == 401)
        #expect(loopbackWithout.header("WWW-Authenticate") == "Bearer")
    }
}
