import Foundation
import QuireSpawn
import QuireTestSupport
import Testing

/// `--metrics-token-file`: `/metrics` then needs the file's token, from loopback too.
extension ServerExecutableTests {
    @Test func metricsTokenFileMakesMetricsNeedTheToken() async throws {
        let tokenFile = directory.appendingPathComponent("metrics-token")
        try Data("scrape-51ab\n".utf8).write(to: tokenFile)
        let process = try ChildProcess(
            [try Self.binary().path, "--port", "0", "--db", database, "--metrics-token-file", tokenFile.path],
            stdout: .pipe, stderr: .null)
        defer { process.signal(SIGTERM) }
        let port = try #require(await Self.listeningPort(process))

        let (without, with) = await onThread {
            (
                LoopbackExchange.send(port: port, "GET", "/metrics"),
                LoopbackExchange.send(port: port, "GET", "/metrics", headers: ["Authorization": "Bearer scrape-51ab"])
            )
        }

        #expect(without?.status == 401)
        #expect(with?.status == 200)
    }

    @Test func metricsTokenFileThatCannotBeUsedStopsTheServer() async throws {
        let empty = directory.appendingPathComponent("empty-token")
        try Data("\n".utf8).write(to: empty)

        let missing = try await Self.run(
            ["--port", "0", "--db", database, "--metrics-token-file", directory.appendingPathComponent("nope").path])
        let blank = try await Self.run(["--port", "0", "--db", database, "--metrics-token-file", empty.path])

        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot read --metrics-token-file"))
        #expect(blank.status == 64)
        #expect(blank.stderr.contains("write the token on its first line"))
    }
}
