import Foundation
import QuireTestSupport
import Testing

/// Help for every command (issue 11, 2), through the built binary: `quire CMD --help`, `-h` and
/// `quire help CMD` print the command's usage, options and an example; the command list, the
/// README's usage section and "did you mean" all come from one table.
@Suite struct CLIHelpTests {
    static func quire(_ arguments: String...) async throws -> ProcessResult {
        let root = try TemporaryDirectory(prefix: "quire-help")
        defer { root.remove() }
        return try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", root.path("d").path] + arguments)
    }

    /// The command names `quire help` lists (the lines of two spaces, a name, two spaces).
    static func listedCommands() async throws -> [String] {
        let overview = try await quire("help")
        #expect(overview.exitCode == 0)
        return overview.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), let name = line.dropFirst(2).split(separator: " ").first,
                line.dropFirst(2 + name.count).hasPrefix("  ")
            else { return nil }
            return String(name)
        }
    }

    @Test func helpListsEveryCommandWithASummary() async throws {
        let names = try await Self.listedCommands()
        for name in [
            "new", "edit", "rm", "ls", "show", "register", "login", "logout", "passwd", "sync",
            "watch", "status", "conflicts", "diff", "resolve", "help", "version",
        ] {
            #expect(names.contains(name), "quire help does not list \(name)")
        }
    }

    @Test func everyCommandHasHelpByEachSpelling() async throws {
        for name in try await Self.listedCommands() {
            let long = try await Self.quire(name, "--help")
            let short = try await Self.quire(name, "-h")
            let viaHelp = try await Self.quire("help", name)
            for result in [long, short, viaHelp] {
                #expect(result.exitCode == 0, "\(name): \(result.stderr)")
                #expect(result.stderr.isEmpty)
            }
            #expect(long.stdout.hasPrefix("quire \(name): "))
            #expect(long.stdout.contains("Usage: quire \(name)"))
            #expect(long.stdout.contains("Options:\n"))
            #expect(long.stdout.contains("\n  quire \(name)"), "\(name) has no example")
            #expect(short.stdout == long.stdout)
            #expect(viaHelp.stdout == long.stdout)
        }
    }

    @Test func helpNamesTheCommandsOwnOptions() async throws {
        let new = try await Self.quire("new", "--help")
        #expect(new.stdout.contains("--title T"))
        #expect(new.stdout.contains("--body B|-"))
        let resolve = try await Self.quire("resolve", "--help")
        #expect(resolve.stdout.contains("--keep original|copy|both"))
    }

    @Test func theReadmeUsageSectionIsMadeFromTheTable() async throws {
        let readmeFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: readmeFile, encoding: .utf8)
        let markdown = try await Self.quire("help", "--markdown")
        #expect(markdown.exitCode == 0)
        #expect(
            readme.contains("<!-- usage: begin -->\n" + markdown.stdout + "<!-- usage: end -->"),
            "README.md's usage section is out of date: run scripts/readme-usage.sh")
        for name in try await Self.listedCommands() {
            #expect(readme.contains("quire \(name)"), "README.md never mentions quire \(name)")
        }
    }

    @Test func versionWorksLikeDashDashVersion() async throws {
        let word = try await Self.quire("version")
        let flag = try await Self.quire("--version")
        #expect(word.exitCode == 0)
        #expect(word.stdout.hasPrefix("quire "))
        #expect(word.stdout == flag.stdout)
    }

    struct Typo: CustomTestStringConvertible, Sendable {
        var typed: [String]
        var suggestion: String?
        var testDescription: String { typed.joined(separator: " ") }
    }

    @Test(arguments: [
        Typo(typed: ["lst"], suggestion: "ls"),
        Typo(typed: ["stauts"], suggestion: "status"),
        Typo(typed: ["sycn"], suggestion: "sync"),
        Typo(typed: ["conf"], suggestion: "conflicts"),
        Typo(typed: ["help", "lst"], suggestion: "ls"),
        Typo(typed: ["frobnicate"], suggestion: nil),
    ])
    func anUnknownCommandSuggestsTheNearest(_ typo: Typo) async throws {
        let root = try TemporaryDirectory(prefix: "quire-help")
        defer { root.remove() }
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", root.path("d").path] + typo.typed)
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("unknown command '\(typo.typed.last!)'"))
        if let suggestion = typo.suggestion {
            #expect(result.stderr.contains("did you mean '\(suggestion)'?"))
        } else {
            #expect(!result.stderr.contains("did you mean"))
        }
    }

    @Test func aUsageErrorPointsToTheCommandsOwnHelp() async throws {
        let result = try await Self.quire("ls", "--verbose-ish")
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("Run 'quire ls --help'"))
    }
}
