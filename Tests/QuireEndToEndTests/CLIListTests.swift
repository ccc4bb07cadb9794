import Foundation
import QuireTestSupport
import Testing

/// `quire ls` (issue 11): sorted by what the user asks, limited, and on a terminal with each note's
/// date and the start of its text; piped, the plain lines scripts read.
@Suite struct CLIListTests {
    /// Three notes made in the order B, A, C; then B is edited, so it is the most recently updated.
    static func threeNotes(_ device: CLIDevice) async throws -> (b: String, a: String, c: String) {
        let b = try await device.ok("new", "--title", "Bravo", "--body", "second letter")
        let a = try await device.ok("new", "--title", "alpha", "--body", "first letter")
        let c = try await device.ok("new", "--title", "Charlie", "--body", "third letter")
        try await device.ok("edit", b, "--body", "second letter, edited")
        return (b, a, c)
    }

    static func ids(_ listing: String) -> [String] {
        listing.split(separator: "\n").map { String($0.prefix(8)) }
    }

    @Test func listSortsByUpdatedCreatedOrTitleAndLimits() async throws {
        let root = try TemporaryDirectory(prefix: "quire-ls")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let (b, a, c) = try await Self.threeNotes(device)
        let short = { (id: String) in String(id.suffix(8)) }
        #expect(Self.ids(try await device.ok("ls")) == [b, c, a].map(short))
        #expect(Self.ids(try await device.ok("ls", "--sort", "updated")) == [b, c, a].map(short))
        #expect(Self.ids(try await device.ok("ls", "--sort", "created")) == [c, a, b].map(short))
        #expect(Self.ids(try await device.ok("ls", "--sort", "title")) == [a, b, c].map(short))
        #expect(Self.ids(try await device.ok("ls", "--sort", "title", "--limit", "2")) == [a, b].map(short))
        let json = try await device.ok("ls", "--json", "--sort", "title", "--limit", "1")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == [a])

        let bad = try await device.run("ls", "--sort", "size")
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("updated, created or title"))
        #expect(try await device.run("ls", "--limit", "0").exitCode == 64)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script"))
    func onATerminalEachRowShowsItsDateAndTheStartOfItsText() async throws {
        let root = try TemporaryDirectory(prefix: "quire-ls")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Groceries", "--body", "\n  milk\neggs and bread")
        let piped = try await device.ok("ls")
        #expect(piped == "\(id.suffix(8))  Groceries  [not synced]")

        let quire = try BuiltProducts.executable("quire").path
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "\(quire) --data-dir \(device.directory.path) ls", "/dev/null"],
            environment: ["COLUMNS": "100"])
        #expect(result.exitCode == 0)
        let line = try #require(result.stdout.split(whereSeparator: \.isNewline).first.map(String.init))
        #expect(line.hasPrefix("\(id.suffix(8))  Groceries"))
        // Made moments ago; on a loaded machine the listing may come minutes later (the parallel
        // pass once took over 3).
        #expect(line.contains("just now") || line.contains(/\ [0-9]+ min ago/), "\(line)")
        #expect(line.contains("milk eggs and bread"))
        #expect(line.contains("[not synced]"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script"))
    func aListLongerThanTheTerminalGoesThroughThePagerButNeverWhenPiped() async throws {
        let root = try TemporaryDirectory(prefix: "quire-ls")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        for index in 0..<6 { try await device.ok("new", "--title", "Note \(index)") }
        let pager = ["PAGER": "sed 's/^/paged: /'", "LINES": "4", "COLUMNS": "100"]
        let quire = try BuiltProducts.executable("quire").path
        let terminal = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "\(quire) --data-dir \(device.directory.path) ls", "/dev/null"], environment: pager)
        #expect(terminal.exitCode == 0)
        let shown = terminal.stdout.split(whereSeparator: \.isNewline)
        #expect(shown.count == 6)
        #expect(shown.allSatisfy { $0.hasPrefix("paged: ") }, "\(terminal.stdout)")

        let short = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "\(quire) --data-dir \(device.directory.path) ls --limit 2", "/dev/null"],
            environment: pager)
        #expect(!short.stdout.contains("paged: "))

        let piped = try await device.run("ls", environment: pager)
        #expect(!piped.stdout.contains("paged: "))
        #expect(piped.stdout.split(separator: "\n").count == 6)
    }

    @Test func aPipedListOfManyPagesPrintsEveryNoteOnceInOrder() async throws {
        let root = try TemporaryDirectory(prefix: "quire-ls")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let folder = root.path("notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<1_234 {
            try Data("note \(index)\n".utf8).write(to: folder.appendingPathComponent("Note \(index).txt"))
        }
        try await device.ok("import", folder.path)

        // More than two pages of 500: every note once, in the list's order.
        let all = Self.ids(try await device.ok("ls"))
        #expect(all.count == 1_234)
        #expect(Set(all).count == 1_234)
        let limited = Self.ids(try await device.ok("ls", "--limit", "600"))
        #expect(limited == Array(all.prefix(600)))
        let json = try await device.ok("ls", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { ($0["id"] as? String)?.suffix(8) }.map(String.init)) == Set(all))

        // By title and by creation, read a page at a time by their indexes too: numbers by value.
        let byTitle = try await device.ok("ls", "--sort", "title").split(separator: "\n")
        let titles = byTitle.map { String($0.dropFirst(10).replacingOccurrences(of: "  [not synced]", with: "")) }
        #expect(titles == (0..<1_234).map { "Note \($0)" })
        let titleJSON = try await device.ok("ls", "--json", "--sort", "title")
        let titleRows = try #require(
            try JSONSerialization.jsonObject(with: Data(titleJSON.utf8)) as? [[String: Any]])
        #expect(
            titleRows.compactMap { ($0["id"] as? String)?.suffix(8) }.map(String.init)
                == Self.ids(byTitle.joined(separator: "\n")))
        let byCreation = Self.ids(try await device.ok("ls", "--sort", "created", "--limit", "700"))
        #expect(byCreation.count == 700)
        #expect(Set(byCreation).count == 700)
    }
}
