import Foundation
import QuireTestSupport
import Testing

/// A sync's progress has a total (issue 11): the feed says how many changes remain, the push
/// knows how many are pending. `--json --progress` prints the events on stderr, one JSON object a
/// line; without `--progress`, and when stderr is not a terminal, nothing extra is printed.
@Suite struct CLISyncProgressTests {
    struct Event: Decodable, Equatable {
        var event: String
        var phase: String
        var done: Int
        var total: Int?
        var finished: Bool
    }

    static func events(_ stderr: String) throws -> [Event] {
        try stderr.split(separator: "\n").map { try JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
    }

    @Test func sendingAndReceivingReportHowManyOfHowMany() async throws {
        let root = try TemporaryDirectory(prefix: "quire-progress")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let phone = CLIDevice(root, "phone")
        let laptop = CLIDevice(root, "laptop")
        let files = root.path("notes")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for index in 0..<250 {
            try Data("# Note \(index)\n\nline \(index)\n".utf8).write(to: files.appendingPathComponent("n\(index).md"))
        }
        try await phone.ok("import", files.path)
        let url = server.url.absoluteString
        try await phone.ok("register", url, "ann", "--password-stdin", stdin: "maple orbit lantern\n")

        let pushed = try await phone.run("sync", "--json", "--progress")

        #expect(pushed.exitCode == 0, "\(pushed.stderr)")
        let sending = try Self.events(pushed.stderr).filter { $0.phase == "sending" }
        #expect(sending.map(\.done) == [100, 200, 250])
        #expect(sending.allSatisfy { $0.total == 250 })
        #expect(sending.last?.finished == true)

        try await laptop.ok("login", url, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        let pulled = try await laptop.run("sync", "--json", "--progress")

        #expect(pulled.exitCode == 0, "\(pulled.stderr)")
        let receiving = try Self.events(pulled.stderr).filter { $0.phase == "receiving" }
        #expect(receiving.map(\.done) == [200, 250])
        #expect(receiving.map(\.total) == [250, 250])
        #expect(receiving.last?.finished == true)
    }

    @Test func nothingExtraWithoutProgressOrWithoutATerminal() async throws {
        let root = try TemporaryDirectory(prefix: "quire-progress")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let phone = CLIDevice(root, "phone")
        try await phone.ok("new", "--title", "A")
        try await phone.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        try await phone.ok("new", "--title", "B")

        let json = try await phone.run("sync", "--json")
        try await phone.ok("new", "--title", "C")
        let plain = try await phone.run("sync")

        #expect(json.exitCode == 0 && json.stderr.isEmpty, "\(json.stderr)")
        #expect(plain.exitCode == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
    }
}
