import Foundation
import QuireTestSupport
import Testing

/// `quire-server --tls-cert FILE --tls-key FILE` as an operator runs it (issue 12, item 12): the
/// flags are in `--help`, and a certificate or key that cannot be used stops the server with one
/// line before it opens its database or listens (66 unreadable, 64 unusable).
struct ServerExecutableTLSTests {
    let root: TemporaryDirectory

    init() throws {
        root = try TemporaryDirectory(prefix: "quire-server-tls")
    }

    var database: String { root.path("server.sqlite").path }

    private func run(_ arguments: [String]) async throws -> ServerExecutableTests.Run {
        try await ServerExecutableTests.run(["--port", "0", "--db", database] + arguments)
    }

    private func makeCA(_ name: String = "ca") async throws -> ThrowawayCA {
        let folder = root.path(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try await ThrowawayCA.make(in: folder)
    }

    /// One line on stderr, nothing on stdout, and no database made: the server never started.
    private func expectStoppedBeforeStarting(_ run: ServerExecutableTests.Run, status: Int32, saying text: String) {
        #expect(run.status == status)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("quire-server: ") && run.stderr.contains(text), "stderr: \(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "one line, not \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func helpListsTheTLSFlags() async throws {
        defer { root.remove() }
        let run = try await ServerExecutableTests.run(["--help"])

        #expect(run.status == 0)
        #expect(run.stdout.contains("[--tls-cert FILE --tls-key FILE]"))
        #expect(run.stdout.contains("--tls-cert FILE              serve HTTPS (TLS 1.2 and 1.3)"))
        #expect(run.stdout.contains("--tls-key FILE               the certificate's private key"))
        #expect(run.stdout.contains("docs/deploying.md"))
    }

    @Test func aCertificateWithoutItsKeyIsAUsageError() async throws {
        defer { root.remove() }
        let run = try await run(["--tls-cert", root.path("server.pem").path])

        #expect(run.status == 64)
        #expect(run.stderr.contains("--tls-cert and --tls-key go together"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aCertificateFileThatCannotBeReadExits66() async throws {
        defer { root.remove() }
        let ca = try await makeCA()
        let missing = root.path("missing.pem").path

        let run = try await run(["--tls-cert", missing, "--tls-key", ca.serverKey.path])

        expectStoppedBeforeStarting(
            run, status: 66, saying: "cannot read --tls-cert \(missing): No such file or directory")
    }

    @Test func aFileThatIsNoCertificateExits64() async throws {
        defer { root.remove() }
        let ca = try await makeCA()

        // The key and certificate given the wrong way round.
        let run = try await run(["--tls-cert", ca.serverKey.path, "--tls-key", ca.serverCertificate.path])

        expectStoppedBeforeStarting(run, status: 64, saying: "--tls-cert \(ca.serverKey.path) holds no PEM certificate")
    }

    @Test func aKeyOfAnotherCertificateExits64() async throws {
        defer { root.remove() }
        let ca = try await makeCA()
        let other = try await makeCA("other")

        let run = try await run(["--tls-cert", ca.serverCertificate.path, "--tls-key", other.serverKey.path])

        expectStoppedBeforeStarting(
            run, status: 64,
            saying:
                "--tls-key \(other.serverKey.path) and --tls-cert \(ca.serverCertificate.path) cannot be used together")
    }

    @Test func anEncryptedKeyExits64SayingHowToDecryptIt() async throws {
        defer { root.remove() }
        let ca = try await makeCA()
        let encrypted = root.path("encrypted-key.pem").path
        try await ThrowawayCA.openssl([
            "pkey", "-in", ca.serverKey.path, "-aes256", "-passout", "pass:secret", "-out", encrypted,
        ])

        let run = try await run(["--tls-cert", ca.serverCertificate.path, "--tls-key", encrypted])

        expectStoppedBeforeStarting(run, status: 64, saying: "is encrypted with a passphrase")
    }

    @Test func servesHTTPSAndSaysSo() async throws {
        defer { root.remove() }
        let ca = try await makeCA()

        let server = try await ServerProcess.start(
            databaseFile: root.path("server.sqlite"), extraArguments: ca.serverArguments)
        defer { server.terminate() }

        #expect(server.url.scheme == "https")
        #expect(await server.stop() == 0)
    }
}
