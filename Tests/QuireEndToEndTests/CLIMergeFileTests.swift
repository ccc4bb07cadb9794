import Foundation
import QuireTestSupport
import Testing

/// `quire merge-file MINE BASE THEIRS` (issue 11): the sync's merge with git merge-file's
/// conventions (merged text on stdout; 0 clean, 1 clash with conflict markers, 2 trouble).
@Suite struct CLIMergeFileTests {
    struct Texts: CustomTestStringConvertible, Sendable {
        var name: String
        var base: String
        var mine: String
        var theirs: String
        var testDescription: String { name }
    }

    /// Writes the three files and runs `program` on them (`quire merge-file -p` or `git merge-file -p`).
    static func merge(_ texts: Texts, with program: [String], in root: TemporaryDirectory) async throws
        -> ProcessResult
    {
        for (name, text) in [("mine.txt", texts.mine), ("base.txt", texts.base), ("theirs.txt", texts.theirs)] {
            try Data(text.utf8).write(to: root.path(name))
        }
        let files = ["mine.txt", "base.txt", "theirs.txt"].map { root.path($0).path }
        return try await ProcessRunner.run(
            program[0] == "git" ? URL(fileURLWithPath: "/usr/bin/git") : try BuiltProducts.executable("quire"),
            Array(program.dropFirst()) + files)
    }

    static let adjacentEdits = Texts(
        name: "adjacent", base: "milk\neggs\nbread\n", mine: "oat milk\neggs\nbread\n", theirs: "milk\n6 eggs\nbread\n")
    static let oneLineChangedTwice = Texts(
        name: "clash", base: "title\nmilk\neggs\nend\n", mine: "title\noat milk\neggs\nend\n",
        theirs: "title\nwhole milk\neggs\nend\n")

    static var gitAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/git") }

    @Test(
        .enabled(if: gitAvailable, "needs git"),
        arguments: [
            Texts(
                name: "edits far apart", base: "a\nb\nc\nd\ne\nf\ng\n", mine: "A\nb\nc\nd\ne\nf\ng\n",
                theirs: "a\nb\nc\nd\ne\nf\nG\n"),
            Texts(
                name: "one side unchanged", base: "milk\neggs\n", mine: "milk\neggs\n", theirs: "milk\n6 eggs\nbread\n"),
            Texts(name: "the same change on both", base: "x\ny\n", mine: "x\nY\n", theirs: "x\nY\n"),
            Texts(
                name: "lines added at both ends", base: "one\ntwo\nthree\nfour\n",
                mine: "zero\none\ntwo\nthree\nfour\n", theirs: "one\ntwo\nthree\nfour\nfive\n"),
            Texts(name: "no final newline", base: "a\nb\nc\nd\ne", mine: "a\nB\nc\nd\ne", theirs: "a\nb\nc\nd\nE"),
        ])
    func aCleanMergeMatchesGitMergeFile(_ texts: Texts) async throws {
        let root = try TemporaryDirectory(prefix: "quire-merge-file")
        defer { root.remove() }
        let git = try await Self.merge(texts, with: ["git", "merge-file", "-p"], in: root)
        let quire = try await Self.merge(texts, with: ["quire", "merge-file", "-p"], in: root)
        #expect(git.exitCode == 0, "git clashed: \(git.stdout)")
        #expect(quire.exitCode == 0, "\(quire.stderr)")
        #expect(quire.stdout == git.stdout)
        #expect(quire.stderr.isEmpty)
    }

    @Test func editsToAdjacentLinesMergeWhereDiff3Clashes() async throws {
        let root = try TemporaryDirectory(prefix: "quire-merge-file")
        defer { root.remove() }
        let quire = try await Self.merge(Self.adjacentEdits, with: ["quire", "merge-file"], in: root)
        #expect(quire.exitCode == 0)
        #expect(quire.stdout == "oat milk\n6 eggs\nbread\n")
    }

    @Test func aClashPrintsBothSidesBetweenConflictMarkersAndExits1() async throws {
        let root = try TemporaryDirectory(prefix: "quire-merge-file")
        defer { root.remove() }
        let texts = Self.oneLineChangedTwice
        let plain = try await Self.merge(texts, with: ["quire", "merge-file", "-p"], in: root)
        #expect(plain.exitCode == 1)
        let mine = root.path("mine.txt").path
        let theirs = root.path("theirs.txt").path
        #expect(plain.stdout == "title\n<<<<<<< \(mine)\noat milk\n=======\nwhole milk\n>>>>>>> \(theirs)\neggs\nend\n")
        #expect(plain.stderr.contains("conflict"))

        let labelled = try await Self.merge(
            texts, with: ["quire", "merge-file", "-q", "-L", "phone", "-L", "base", "-L", "laptop"], in: root)
        #expect(labelled.exitCode == 1)
        #expect(labelled.stdout.contains("<<<<<<< phone\n"))
        #expect(labelled.stdout.contains(">>>>>>> laptop\n"))
        #expect(labelled.stderr.isEmpty)
    }

    @Test func troubleExits2() async throws {
        let root = try TemporaryDirectory(prefix: "quire-merge-file")
        defer { root.remove() }
        let quire = try BuiltProducts.executable("quire")
        try Data("text\n".utf8).write(to: root.path("a"))
        let a = root.path("a").path
        let missing = try await ProcessRunner.run(quire, ["merge-file", a, root.path("nope").path, a])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.contains("nope"))
        let tooFew = try await ProcessRunner.run(quire, ["merge-file", "a"])
        #expect(tooFew.exitCode == 2)
        #expect(tooFew.stdout.isEmpty)
    }
}
