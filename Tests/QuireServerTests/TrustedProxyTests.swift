import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The client's address is the socket's peer; behind a proxy named with `--trusted-proxy` it is
/// the last untrusted address of `X-Forwarded-For`, and a header from any other peer is ignored
/// (issue 12, item 6).
struct TrustedProxyTests {
    let harness: ServerHarness
    let proxy = "10.0.0.2"
    let wrongKey = ServerHarness.authKey("ada", password: "wrong")

    init() async throws {
        var configuration = ServerHarness.configuration
        configuration.trustedProxies = TrustedProxies(["10.0.0.2", "10.0.0.3"])
        harness = try ServerHarness(configuration: configuration)
        _ = await harness.register(ServerHarness.registration("ada"))
    }

    func signIn(authKey: Data? = nil, peer: String, forwardedFor: String?) async -> HTTPResponse {
        let body = CreateSessionRequestDTO(
            username: "ada", authKey: (authKey ?? ServerHarness.authKey("ada")).base64EncodedString(),
            deviceName: "laptop")
        return await harness.post(
            WireRoutes.sessions, body, address: peer,
            headers: forwardedFor.map { ["X-Forwarded-For": $0] } ?? [:])
    }

    @Test func aTrustedProxysForwardedForIsTheClientsAddress() async throws {
        for _ in 0..<5 {
            _ = await signIn(authKey: wrongKey, peer: proxy, forwardedFor: "203.0.113.7")
        }

        let attacker = await signIn(peer: proxy, forwardedFor: "203.0.113.7")
        let owner = await signIn(peer: proxy, forwardedFor: "198.51.100.1")

        #expect(attacker.status == 429)
        #expect(owner.status == 200, "the owner behind the same proxy is another client")
    }

    @Test func theLastUntrustedHopCountsNotWhatTheClientWrote() async throws {
        for index in 0..<5 {
            _ = await signIn(
                authKey: wrongKey, peer: proxy, forwardedFor: "192.0.2.\(index), 203.0.113.7, 10.0.0.3")
        }

        #expect(await signIn(peer: proxy, forwardedFor: "198.51.100.1, 203.0.113.7").status == 429)
    }

    @Test func anUntrustedPeersForwardedForIsIgnored() async throws {
        for index in 0..<5 {
            _ = await signIn(authKey: wrongKey, peer: "203.0.113.7", forwardedFor: "192.0.2.\(index)")
        }

        #expect(await signIn(peer: "203.0.113.7", forwardedFor: "198.51.100.1").status == 429)
    }

    @Test(
        arguments: [
            ("10.0.0.2", nil, "10.0.0.2"), ("10.0.0.2", "", "10.0.0.2"), ("10.0.0.2", "10.0.0.3", "10.0.0.2"),
            ("10.0.0.2", "1.2.3.4, 10.0.0.3", "1.2.3.4"), ("10.0.0.2", "<script>", "10.0.0.2"),
            ("10.0.0.2", " 2001:db8::1 ", "2001:db8::1"), ("1.2.3.4", "5.6.7.8", "1.2.3.4"),
        ] as [(String, String?, String)])
    func clientAddressReadsFromTheRight(peer: String, header: String?, expected: String) {
        let proxies = TrustedProxies(["10.0.0.2", "10.0.0.3"])

        #expect(proxies.clientAddress(peer: peer, forwardedFor: header) == expected)
    }
}
