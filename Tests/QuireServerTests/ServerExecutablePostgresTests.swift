import Foundation
import QuirePostgres
import QuireSpawn
import QuireTestSupport
import QuireWire
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `quire-server --db postgres://…`, run as a user would.
struct ServerExecutablePostgresTests {
    @Test func servesOnAPostgresDatabaseNamedByAURI() async throws {
        // Given a fresh database in the test cluster, named by a URI over TCP.
        let connectionString = try await PostgresTestCluster.freshDatabase()
        let cluster = try PostgresTestCluster.shared()
        let name = try #require(connectionString.split(separator: "=").last.map(String.init))
        let child = try ChildProcess(
            [
                try ServerExecutableTests.binary().path, "--port", "0", "--db", cluster.uri(database: name),
                "--min-kdf-iterations", "1000", "--auth-hash-iterations", "1000",
            ], stdout: .pipe, stderr: .pipe)
        defer { child.signal(SIGKILL) }

        // When it starts and a client registers an account through it.
        let base = try await onOwnThread { try Self.listeningAddress(child) }
        var request = URLRequest(url: base.appendingPathComponent("v1/accounts"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = WireJSON.encode(ServerHarness.registration("ada"))
        let (_, response) = try await URLSession.shared.data(for: request)

        // Then the account is in that database.
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        let db = try PostgresConnection(connectionString)
        #expect(try db.queryAll("SELECT username FROM accounts") { try $0.text(0) } == ["ada"])
        child.signal(SIGTERM)
        #expect(try await onOwnThread { child.wait(timeout: 20) } == 0)
    }

    @Test func aPasswordInTheURIIsAUsageErrorThatNeverEchoesIt() async throws {
        let run = try await ServerExecutableTests.run(["--db", "postgres://ada:hunter2@127.0.0.1:5432/quire"])

        #expect(run.status == 64)
        #expect(run.stderr.contains("PGPASSWORD"))
        #expect(!run.stderr.contains("hunter2") && !run.stdout.contains("hunter2"))
    }

    @Test func anUnreachableDatabaseFailsWithWhatToCheck() async throws {
        let run = try await ServerExecutableTests.run(["--port", "0", "--db", "postgres://ada@127.0.0.1:1/quire"])

        #expect(run.status == 1)
        #expect(run.stderr.contains("PGPASSWORD or ~/.pgpass"))
    }

    @Test func helpDescribesThePostgresForm() async throws {
        let run = try await ServerExecutableTests.run(["--help"])

        #expect(run.stdout.contains("--db postgres://USER@HOST:PORT/DB"))
    }

    /// Reads the child's stdout until its "listening on URL" line (at most 20 s).
    static func listeningAddress(_ child: ChildProcess) throws -> URL {
        let output = try #require(child.output)
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: "listening on "),
                let newline = text[range.upperBound...].firstIndex(of: "\n"),
                let url = URL(string: String(text[range.upperBound..<newline]))
            {
                return url
            }
        }
        let errors = String(decoding: child.errorOutput?.availableData ?? Data(), as: UTF8.self)
        throw PostgresTestClusterError("quire-server did not start: \(text) \(errors)")
    }
}
