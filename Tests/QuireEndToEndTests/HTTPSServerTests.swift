import Foundation
import QuireTestSupport
import Testing

/// Devices against a real `quire-server` serving HTTPS (`--tls-cert`, `--tls-key`) with a
/// certificate from a throwaway CA made in the test, as a self-hosted server would have
/// (issue 12, item 12). Also: plain HTTP to another machine is refused before any request.
struct HTTPSServerTests {
    /// A CA, and a server serving HTTPS with the certificate it signed.
    struct HTTPSServer {
        let root: TemporaryDirectory
        let ca: ThrowawayCA
        let server: ServerProcess

        init() async throws {
            root = try TemporaryDirectory(prefix: "quire-https")
            let folder = root.path("ca")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            ca = try await ThrowawayCA.make(in: folder)
            server = try await ServerProcess.start(
                databaseFile: root.path("server.sqlite"), extraArguments: ca.serverArguments)
        }

        func tearDown() {
            server.terminate()
            root.remove()
        }
    }

    @Test func devicesSyncThroughHTTPSTrustingTheServersOwnCA() async throws {
        // Given a server on https:// with a certificate of a CA only the devices are told about
        let https = try await HTTPSServer()
        defer { https.tearDown() }
        let url = https.server.url.absoluteString
        #expect(url.hasPrefix("https://127.0.0.1:"))
        let phone = CLIDevice(https.root, "phone")
        let laptop = CLIDevice(https.root, "laptop")

        // When one device registers with --ca-file, writes and syncs, and a second signs in the same way
        try await phone.ok(
            ["register", url, "alice", "--password-stdin", "--ca-file", https.ca.certificate.path],
            stdin: "correct horse\n")
        try await phone.ok("new", "--title", "Over TLS", "--body", "sealed twice")
        // Later syncs get no flag: the device kept its CA with the account.
        #expect(try await phone.ok("sync").hasPrefix("Synced: sent 1"))
        try await laptop.ok(
            ["login", url, "alice", "--password-stdin", "--ca-file", https.ca.certificate.path],
            stdin: "correct horse\n")
        try await laptop.ok("sync")

        // Then the second device has the note, and says which CA it trusts
        #expect(try await laptop.notes().map(\.title) == ["Over TLS"])
        #expect(try await laptop.ok("status").contains("Trusted CA:   \(https.ca.certificate.path)"))
    }

    @Test func withoutTheCAFileTheCertificateIsNotTrustedAndSaysWhatToDo() async throws {
        let https = try await HTTPSServer()
        defer { https.tearDown() }
        let phone = CLIDevice(https.root, "phone")

        let result = try await phone.run(
            "register", https.server.url.absoluteString, "alice", "--password-stdin", stdin: "correct horse\n")

        #expect(result.exitCode == 78)
        #expect(
            result.stderr
                == "quire: the server's certificate is not trusted: pass --ca-file CA.pem for a self-hosted server\n")
    }

    @Test func anotherCAIsNotEnough() async throws {
        // The device trusts only the CA it was given: a certificate from any other one is refused.
        let https = try await HTTPSServer()
        defer { https.tearDown() }
        let other = https.root.path("other-ca")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let otherCA = try await ThrowawayCA.make(in: other)
        let phone = CLIDevice(https.root, "phone")

        let result = try await phone.run(
            "register", https.server.url.absoluteString, "alice", "--password-stdin",
            "--ca-file", otherCA.certificate.path, stdin: "correct horse\n")

        #expect(result.exitCode == 78)
        #expect(result.stderr.contains("the server's certificate is not trusted"))
    }

    @Test func aSyncWhoseCAFileWentAwaySaysSo() async throws {
        let https = try await HTTPSServer()
        defer { https.tearDown() }
        let phone = CLIDevice(https.root, "phone")
        let copy = https.root.path("ca-copy.pem")
        try FileManager.default.copyItem(at: https.ca.certificate, to: copy)
        try await phone.ok(
            ["register", https.server.url.absoluteString, "alice", "--password-stdin", "--ca-file", copy.path],
            stdin: "correct horse\n")
        try FileManager.default.removeItem(at: copy)

        let result = try await phone.run("sync")

        #expect(result.exitCode == 74)
        #expect(result.stderr.contains("sync failed: The certificate authority file \(copy.path) cannot be used"))
        #expect(result.stderr.contains("--ca-file CA.pem"))
    }

    @Test func plainHTTPToAnotherMachineIsRefusedWithoutAnyRequest() async throws {
        // Given a proxy every plain-HTTP request of the device would go through (http_proxy), so
        // any request at all, to whatever host, shows as a connection to it
        let root = try TemporaryDirectory(prefix: "quire-plain-http")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let proxy = try LossyLoopbackProxy(upstreamPort: UInt16(server.url.port!), seed: 1)
        defer { proxy.stop() }
        let environment = ["http_proxy": proxy.url.absoluteString, "no_proxy": "", "NO_PROXY": ""]
        let phone = CLIDevice(root, "phone")

        // When the device is asked to register on http:// to a name that is not loopback
        let refused = try await phone.run(
            "register", "http://notes.example.com:8080", "alice", "--password-stdin", stdin: "correct horse\n",
            environment: environment)

        // Then it refuses in one line, exit 64, and nothing reached the network
        #expect(refused.exitCode == 64)
        #expect(
            refused.stderr
                == "quire: refusing plain http:// to notes.example.com, which is not this machine: use https://, "
                + "or pass --insecure-http to send sign-in keys and tokens unencrypted\n")
        #expect(proxy.counts.connections == 0)

        // And with --insecure-http the same command does go out (through the proxy): the check above could fail
        _ = try await phone.run(
            "register", "http://notes.example.com:8080", "alice", "--password-stdin", "--insecure-http",
            stdin: "correct horse\n", environment: environment)
        #expect(proxy.counts.connections > 0)
    }

    @Test func aCAFileThatCannotBeReadIsRefusedBeforeThePassword() async throws {
        let https = try await HTTPSServer()
        defer { https.tearDown() }
        let phone = CLIDevice(https.root, "phone")
        let missing = https.root.path("no-such-ca.pem").path

        let result = try await phone.run(
            "login", https.server.url.absoluteString, "alice", "--password-stdin", "--ca-file", missing,
            stdin: "correct horse\n")

        #expect(result.exitCode == 74)
        #expect(
            result.stderr == "quire: cannot use --ca-file \(missing): No such file or directory; give the "
                + "server's CA certificate as PEM\n")
    }
}
