import Foundation
import QuireClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which servers a device talks to and how (issue 12, item 12): https:// always, plain http://
/// only to this machine unless allowed, and the rule applied by the live transport itself.
struct ServerTrustTests {
    @Test(arguments: [
        "127.0.0.1", "127.0.0.2", "127.255.255.254", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1",
        "localhost", "LOCALHOST", "localhost.",
    ])
    func loopbackHosts(_ host: String) {
        #expect(ServerTrust.isLoopback(host: host))
    }

    @Test(arguments: [
        "128.0.0.1", "126.255.255.255", "10.0.0.1", "192.168.1.20", "0.0.0.0", "::", "::2", "fe80::1",
        "127.1", "0x7f.0.0.1", "2130706433", "127.0.0.1.nip.io", "localhost.example.com", "mylocalhost",
        "notes.example.com", "",
    ])
    func otherHosts(_ host: String) {
        #expect(!ServerTrust.isLoopback(host: host))
    }

    @Test func plainHTTPIsRefusedOnlyToAnotherMachineAndOnlyUnlessAllowed() throws {
        let remote = try #require(URL(string: "http://notes.example.com:8080"))

        #expect(ServerTrust.system.refusal(of: remote) == .insecureHTTP(host: "notes.example.com"))
        #expect(ServerTrust(allowsInsecureHTTP: true).refusal(of: remote) == nil)
        #expect(ServerTrust.system.refusal(of: try #require(URL(string: "https://notes.example.com"))) == nil)
        #expect(ServerTrust.system.refusal(of: try #require(URL(string: "http://127.0.0.1:8080"))) == nil)
        #expect(ServerTrust.system.refusal(of: try #require(URL(string: "http://[::1]:8080"))) == nil)
        #expect(ServerTrust.system.refusal(of: try #require(URL(string: "HTTP://Notes.Example.com"))) != nil)
    }

    @Test func theLiveTransportRefusesPlainHTTPToAnotherMachineBeforeConnecting() async throws {
        // A name that cannot resolve: a transport that tried would fail with cannotFindHost instead.
        let transport = LiveTransport.make(baseURL: try #require(URL(string: "http://quire.invalid:8080")))

        let error = await #expect(throws: URLError.self) {
            try await transport.send(TransportRequest(method: "GET", path: "/v1/health", timeout: 5))
        }

        #expect(error?.code == .appTransportSecurityRequiresSecureConnection)
    }

    @Test func signingInOverARefusedURLIsAnInsecureConnectionError() async throws {
        let url = try #require(URL(string: "http://quire.invalid:8080"))
        let accounts = AccountsAPIClient(transport: LiveTransport.make(baseURL: url))

        let error = await #expect(throws: AccountError.self) { _ = try await accounts.kdf(username: "ada") }

        #expect(error == .insecureConnection)
        #expect(error?.isRetryable == false)
    }

    @Test func aCAFileMustBeReadableAndHoldACertificate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-trust-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notPEM = directory.appendingPathComponent("ca.txt")
        try Data("hello".utf8).write(to: notPEM)
        let missing = directory.appendingPathComponent("missing.pem").path

        #expect(throws: ServerTrustError.unreadableCAFile(path: missing, reason: "No such file or directory")) {
            try ServerTrust(caFile: missing).checkCAFile()
        }
        #expect(throws: ServerTrustError.self) { try ServerTrust(caFile: notPEM.path).checkCAFile() }
        #expect(throws: Never.self) { try ServerTrust.system.checkCAFile() }
    }

    @Test func aSessionStoredBeforeTrustExistedReadsAsTheSystemsTrust() throws {
        let stored = """
            {"serverURL":"https://notes.example.com","username":"ada","accountId":"acct-1",
             "accessToken":"a","refreshToken":"r","notesKey":"AAAA",
             "kdf":{"algorithm":"pbkdf2-sha256","salt":"AAAAAAAAAAAAAAAAAAAAAA==","iterations":600000}}
            """
        let session = try JSONDecoder().decode(AccountSession.self, from: Data(stored.utf8))

        #expect(session.trust == .system)
        let withCA = AccountSession(
            serverURL: session.serverURL, username: "ada", accountId: "acct-1", accessToken: nil, refreshToken: nil,
            accessTokenExpiresAt: nil, notesKey: "AAAA", kdf: session.kdf, trust: ServerTrust(caFile: "/etc/ca.pem"))
        let roundTripped = try JSONDecoder().decode(AccountSession.self, from: JSONEncoder().encode(withCA))
        #expect(roundTripped.trust.caFile == "/etc/ca.pem")
    }
}
