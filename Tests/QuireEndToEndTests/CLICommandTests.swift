import Foundation
import QuireTestSupport
import Testing

/// The `quire` binary's commands, output and exit codes, with no server (a device works offline).
@Suite struct CLICommandTests {
    @Test func newPrintsTheIdAndListShowsTheUnsyncedBadge() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Groceries", "--body", "milk")
        #expect(UUID(uuidString: id) != nil)
        #expect(try await device.ok("ls") == "\(id.suffix(8))  Groceries  [not synced]")
        #expect(try await device.ok("show", id) == "Groceries\n\nmilk")
    }

    @Test func editTakesAPrefixAndReadsTheBodyFromStandardInput() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Draft")
        try await device.ok("edit", String(id.prefix(6)), "--body", "-", stdin: "line one\nline two\n")
        let note = try #require(try await device.notes().first)
        #expect(note.body == "line one\nline two\n")
        #expect(note.title == "Draft")
        try await device.ok("edit", id, "--title", "Final")
        #expect(try await device.notes().first?.title == "Final")
        #expect(try await device.notes().first?.body == "line one\nline two\n")
    }

    @Test func editWithNoFlagsOpensTheEditor() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Old title", "--body", "old body")
        // A scripted "editor" that rewrites the file it is given.
        let editor = root.path("editor.sh")
        try "#!/bin/sh\nprintf 'New title\\n\\nnew body' > \"$1\"\n".write(
            to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let result = try await device.run("edit", id, environment: ["EDITOR": editor.path])
        #expect(result.exitCode == 0)
        let note = try #require(try await device.notes().first)
        #expect(note.title == "New title")
        #expect(note.body == "new body")
    }

    @Test func removeHidesTheNote() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Temp")
        try await device.ok("rm", id)
        #expect(try await device.notes().isEmpty)
        // Asked for by its id, a deleted note says where it is and how to bring it back.
        let shown = try await device.run("show", String(id.suffix(8)))
        #expect(shown.exitCode == 65)
        #expect(shown.stderr.contains("is in the trash") && shown.stderr.contains("quire restore"), "\(shown.stderr)")
        try await device.ok("restore", String(id.suffix(8)))
        #expect(try await device.notes().map(\.title) == ["Temp"])
    }

    @Test func anEmptyListSaysWhyInsteadOfNoNotesWhenTheFirstSyncFailed() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        #expect(try await device.ok("ls").hasPrefix("No notes yet."))
        // Signed in, then the server goes away before the first sync: the empty list says so.
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        try await device.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        await server.stop()
        #expect(try await device.run("sync").exitCode == 69)
        let listing = try await device.ok("ls")
        #expect(listing.contains("first sync failed"))
        #expect(!listing.hasPrefix("No notes yet."))
    }

    @Test func statusJSONHasEveryField() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.ok("new", "--title", "A")
        let json = try await device.ok("status", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["pendingCount"] as? Int == 1)
        #expect(object["isSyncing"] as? Bool == false)
        #expect(object["lastRunFailed"] as? Bool == false)
        #expect(object["conflictCount"] as? Int == 0)
    }

    @Test func statusVerboseShowsTheSyncMetricsAndTheOldestWaitingChange() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.ok("new", "--title", "A")
        let plain = try await device.ok("status")
        #expect(!plain.contains("Syncs:"))
        let verbose = try await device.ok("status", "--verbose")
        #expect(verbose.contains("Oldest change waiting:"))
        #expect(verbose.contains("Syncs:        0 (0 failed, 0 full resyncs)"))
        #expect(verbose.contains("save to acknowledgement median n/a"))
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var exitCode: Int32
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        BadInput(arguments: [], exitCode: 64, message: "no command given"),
        BadInput(arguments: ["frobnicate"], exitCode: 64, message: "unknown command 'frobnicate'"),
        BadInput(arguments: ["ls", "--verbose-ish"], exitCode: 64, message: "unknown option '--verbose-ish'"),
        BadInput(arguments: ["ls", "-x"], exitCode: 64, message: "unknown option '-x'"),
        BadInput(arguments: ["new"], exitCode: 64, message: "needs --title"),
        BadInput(arguments: ["new", "--title"], exitCode: 64, message: "'--title' needs a value"),
        BadInput(arguments: ["show"], exitCode: 64, message: "expected <id>"),
        BadInput(arguments: ["show", "0000"], exitCode: 65, message: "no note with id '0000'"),
        BadInput(arguments: ["show", "ab"], exitCode: 65, message: "at least 4 characters"),
        BadInput(arguments: ["rm", "not-a-note"], exitCode: 65, message: "no note with id"),
        BadInput(arguments: ["sync"], exitCode: 78, message: "not signed in to a server; run: quire login URL USER"),
        BadInput(arguments: ["login", "localhost:8080", "ann"], exitCode: 64, message: "not a server URL"),
        BadInput(arguments: ["login", "http://127.0.0.1:8080"], exitCode: 64, message: "expected <url> <username>"),
        BadInput(arguments: ["register", "http://127.0.0.1:9", "ann"], exitCode: 64, message: "--password-stdin"),
        BadInput(arguments: ["remote", "http://127.0.0.1:8080"], exitCode: 64, message: "unknown command 'remote'"),
        BadInput(arguments: ["resolve", "abcd"], exitCode: 64, message: "needs --keep"),
        BadInput(arguments: ["resolve", "abcd", "--keep", "all"], exitCode: 64, message: "original, copy, both"),
    ])
    func badInputGetsAClearMessageAndAMeaningfulExitCode(_ case: BadInput) async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Untouched", "--body", "still here")
        let result = try await ProcessRunner.run(
            try BuiltProducts.executable("quire"), ["--data-dir", device.directory.path] + `case`.arguments)
        #expect(result.exitCode == `case`.exitCode)
        #expect(result.stderr.contains(`case`.message))
        #expect(result.stdout.isEmpty)
        // Nothing was lost or changed by the bad command.
        #expect(try await device.notes().map(\.id) == [id])
        #expect(try await device.notes().first?.body == "still here")
    }

    @Test func helpPrintsUsageAndSucceeds() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let result = try await CLIDevice(root, "d").run("--help")
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Usage: quire"))
    }

    @Test func aCredentialsFileReadableByOthersIsRefused() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        try await device.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        let file = device.directory.appendingPathComponent("session.json")
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let result = try await device.run("sync")
        #expect(result.exitCode == 77)
        #expect(result.stderr.contains("chmod 600"))
    }
}
