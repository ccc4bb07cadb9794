import Foundation
import QuireTestSupport
import Testing

/// Messages that do not mislead (issue 11, 3), through the built binary: each failure says what is
/// wrong in words and what to do, with raw HTTP and network codes only under `--verbose`.
@Suite struct CLIMessagesTests {
    /// An HTTP server on loopback that is not Quire: it answers every request with `status` and a
    /// small HTML page (Python's standard library; the port is the one it prints).
    struct ForeignServer {
        let process: BackgroundProcess
        let url: URL

        init(status: Int, in root: TemporaryDirectory) async throws {
            let script = """
                import http.server, sys
                class Page(http.server.BaseHTTPRequestHandler):
                    def answer(self):
                        self.send_response(\(status)); self.send_header('Content-Type', 'text/html')
                        self.end_headers(); self.wfile.write(b'<html>a web page</html>')
                    do_GET = do_POST = do_PUT = do_DELETE = answer
                    def log_message(self, *args): pass
                server = http.server.HTTPServer(('127.0.0.1', 0), Page)
                print(server.server_port, flush=True)
                server.serve_forever()
                """
            let output = root.path("foreign-\(status).log")
            process = try BackgroundProcess.start(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], outputFile: output)
            let started = process
            _ = await eventually(timeout: 10) { started.output.contains("\n") }
            let port = try #require(process.output.split(separator: "\n").first.flatMap { Int($0) })
            url = URL(string: "http://127.0.0.1:\(port)")!
        }
    }

    static var pythonAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") }

    /// No code of any kind in a message a person reads without asking for them.
    static func expectNoRawCodes(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in ["(-1", "(HTTP", "HTTP 4", "HTTP 5", "DTO", "NSCocoaErrorDomain", "Error Domain"] {
            #expect(!text.contains(raw), "\(raw) in: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func nothingListeningNamesTheURLAndSuggestsStartingTheServer() async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let result = try await device.run(
            "login", "http://127.0.0.1:9", "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        #expect(result.exitCode == 69)
        #expect(result.stderr.contains("nothing is listening at http://127.0.0.1:9"))
        #expect(result.stderr.contains("quire-server"))
        #expect(!result.stderr.contains("Run 'quire"))
        Self.expectNoRawCodes(result.stderr)

        let verbose = try await device.run(
            "login", "http://127.0.0.1:9", "ann", "--password-stdin", "--verbose", stdin: "maple orbit lantern\n")
        #expect(verbose.exitCode == 69)
        #expect(verbose.stderr.contains("-1004"))
    }

    @Test func aSyncWithTheServerGoneNamesItsURL() async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        let url = server.url.absoluteString
        try await device.ok("register", url, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        await server.stop()
        let result = try await device.run("sync")
        #expect(result.exitCode == 69)
        #expect(result.stderr.contains("nothing is listening at \(url)"))
        #expect(result.stderr.contains("quire-server"))
        Self.expectNoRawCodes(result.stderr)
    }

    @Test func httpsAgainstAPlainHTTPServerSaysSo() async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let plain = server.url.absoluteString
        let https = plain.replacingOccurrences(of: "http://", with: "https://")
        let result = try await CLIDevice(root, "d").run(
            "login", https, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        #expect(result.exitCode == 69)
        #expect(result.stderr.contains("plain HTTP"))
        #expect(result.stderr.contains(plain))
        #expect(!result.stderr.contains("try again later"))
        Self.expectNoRawCodes(result.stderr)
    }

    @Test(.enabled(if: pythonAvailable, "needs python3"), arguments: [200, 404])
    func aServerThatIsNotQuireIsCalledThat(status: Int) async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let foreign = try await ForeignServer(status: status, in: root)
        for command in ["login", "register"] {
            let result = try await CLIDevice(root, "d-\(command)").run(
                command, foreign.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
            #expect(result.exitCode == 69, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("\(foreign.url.absoluteString) is not a Quire server (no /v1/health)"))
            Self.expectNoRawCodes(result.stderr)
        }
        await foreign.process.kill9()
    }

    @Test func aDataDirectoryThatCannotBeCreatedIsOneLineAndExit74() async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let file = root.path("a-file")
        try Data("not a directory".utf8).write(to: file)
        let directory = file.appendingPathComponent("device").path
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", directory, "ls"])
        #expect(result.exitCode == 74)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot create the data directory \(directory)"))
        #expect(result.stderr.contains("Not a directory"))
        Self.expectNoRawCodes(result.stderr)
    }

    static var scriptAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// The passwords are typed at a terminal (a pty from `script`), not read from a pipe.
    @Test(.enabled(if: scriptAvailable, "needs script (util-linux)"))
    func mismatchedPasswordsAtRegisterGetNoUsageHint() async throws {
        let root = try TemporaryDirectory(prefix: "quire-messages")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let quire = try BuiltProducts.executable("quire").path
        let command = "\(quire) --data-dir \(root.path("d").path) register \(server.url.absoluteString) ann"
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"],
            stdin: "maple orbit lantern\nmaple orbit lanterns\n")
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("the passwords do not match"))
        #expect(!result.stdout.contains("Run 'quire"))
        #expect(!result.stdout.contains("usage"))
    }
}
