import Foundation
import QuireSpawn
import QuireTestSupport
import Testing

/// Issue 9's paths to stranded text, as a person meets them: the built `quire` binary, several
/// processes of one device, a real `quire-server` on loopback.
@Suite struct StrandedTextCLITests {
    /// Defect 2: a note over the server's body limit is refused before it is sent, the reason is
    /// shown everywhere, `sync` exits 75 saying what to do, and the shortened note then syncs.
    @Test func aNoteTooLargeToSyncSaysWhyAndSyncsOnceShortened() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let huge = String(repeating: "all work and no play. ", count: 250_000)  // 5.5 MB
        let id = try await setup.phone.ok("new", "--title", "Huge", "--body", "-", stdin: huge)

        let sync = try await setup.phone.run("sync")
        #expect(sync.exitCode == 75)
        #expect(sync.stderr.contains("did not sync"))
        let list = try await setup.phone.ok("ls")
        #expect(list.contains("[refused by server]"))
        #expect(list.contains("too large to sync"))
        #expect(try await setup.phone.ok("status").contains("Refused:"))
        let json = try await setup.phone.ok("ls", "--json")
        let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        #expect((rows?.first?["syncIssue"] as? String)?.hasPrefix("This note is too large") == true)

        try await setup.phone.ok("edit", id, "--body", "small now")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        #expect(try await setup.laptop.notes().map(\.body) == ["small now"])
    }

    /// Defect 4: `quire watch` and several `quire sync`s of one device at once never fail, never
    /// refuse, and end with every note on the other device.
    @Test func watchAndManySyncsOfOneDeviceAtOnceNeverFail() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let watch = try BackgroundQuire.start(setup.phone, "watch", "--json")
        defer { watch.stop() }
        var ids: [String] = []
        for round in 0..<4 {
            for index in 0..<3 {
                ids.append(try await setup.phone.ok("new", "--title", "R\(round)N\(index)", "--body", "x"))
            }
            let results = try await withThrowingTaskGroup(of: ProcessResult.self) { group in
                for _ in 0..<3 { group.addTask { try await setup.phone.run("sync") } }
                var all: [ProcessResult] = []
                for try await result in group { all.append(result) }
                return all
            }
            for result in results {
                #expect(result.exitCode == 0, "round \(round): \(result.stderr)")
                #expect(!result.stdout.contains("refused"))
            }
        }
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        #expect(Set(try await setup.laptop.notes().map(\.id)) == Set(ids))
        #expect(try await setup.phone.notes().allSatisfy { $0.state == "synced" })
    }

    /// Defect 10: a running `quire watch` pushes a save made by another `quire` process of the
    /// same device within seconds, and never reports that note as an arrival.
    @Test func watchPushesAnotherProcessesSaveAndDoesNotCallItAnArrival() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let watch = try BackgroundQuire.start(setup.phone, "watch", "--json")
        #expect(await eventually(timeout: 20) { watch.output.contains("\"event\":\"status\"") })

        let id = try await setup.phone.ok("new", "--title", "From another process", "--body", "x")
        let saved = Date()
        let pushed = await eventually(timeout: 20) {
            guard (try? await setup.laptop.ok("sync")) != nil else { return false }
            return (try? await setup.laptop.notes())?.contains { $0.id == id } == true
        }
        let elapsed = Date().timeIntervalSince(saved)
        watch.stop()

        #expect(pushed, "watch printed: \(watch.output)")
        // Target: within 2 s (a 0.5 s look for other processes' commits, then the save debounce);
        // the bound leaves room for a loaded machine (6.7 s seen in the full suite on two cores)
        // and is still far below the 5-minute periodic sync that was the only way before.
        #expect(elapsed < 20, "the watch pushed it after \(elapsed) s")
        #expect(!watch.output.contains(id), "the device's own note was reported: \(watch.output)")
    }

    /// Defect 11: signing in to another account while this device holds one account's notes is
    /// refused, nothing moves between accounts, and it works after `logout`.
    @Test func signingInToAnotherAccountIsRefusedWhileThisOnesNotesAreHere() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let url = setup.server.url.absoluteString
        let other = CLIDevice(setup.root, "other")
        try await other.ok("register", url, "bob", "--password-stdin", stdin: "battery staple\n")
        try await setup.phone.ok("new", "--title", "Alice's secret", "--body", "unsynced")

        let refused = try await setup.phone.run("login", url, "bob", "--password-stdin", stdin: "battery staple\n")
        #expect(refused.exitCode == 78)
        #expect(refused.stderr.contains("quire logout"))
        #expect(try await setup.phone.notes().map(\.title) == ["Alice's secret"])
        #expect(try await setup.phone.ok("status").contains("alice"))

        try await setup.phone.ok("logout", "--force")
        try await setup.phone.ok("login", url, "bob", "--password-stdin", stdin: "battery staple\n")
        try await setup.phone.ok("sync")
        try await other.ok("sync")
        #expect(try await other.notes().isEmpty)
        #expect(try await setup.phone.notes().isEmpty)
    }
}

extension StrandedTextCLITests {
    /// Defect 13: while `quire edit` has the editor open, another process of the device changes
    /// the note (a `watch` pulling another device's edit). Saving the editor's text must not
    /// replace that change: a clash keeps both, the editor's text as a linked copy.
    @Test func anEditorSaveOverAChangeMadeMeanwhileKeepsBothTexts() async throws {
        let root = try TemporaryDirectory(prefix: "quire-edit-race")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Plan", "--body", "meet at noon")
        let quire = try BuiltProducts.executable("quire").path
        // The "editor" first lets another process change the note, then writes the user's text.
        let editor = root.path("editor.sh")
        try """
        #!/bin/sh
        "\(quire)" --data-dir "\(device.directory.path)" edit \(id) --body 'meet at one'
        printf 'Plan\\n\\nmeet at two' > "$1"

        """.write(to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)

        let result = try await device.run("edit", id, environment: ["EDITOR": editor.path])

        #expect(result.exitCode == 0, "\(result.stderr)")
        let notes = try await device.notes()
        #expect(notes.first { $0.id == id }?.body == "meet at one")
        #expect(notes.first { $0.conflictOf == id }?.body == "meet at two")
    }
}

extension StrandedTextCLITests {
    /// Defect 12: "mine" is this device's text on either device. The phone did not make the copy
    /// (the laptop did, from its own text), so on the phone "mine" is the original.
    @Test func keepMineOnTheDeviceThatDidNotMakeTheCopyKeepsThatDevicesText() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        try await setup.phone.ok("logout", "--force")
        let url = setup.server.url.absoluteString
        try await setup.phone.ok(
            "login", url, "alice", "--password-stdin", "--device-name", "phone", stdin: "correct horse\n")
        try await setup.laptop.ok("logout", "--force")
        try await setup.laptop.ok(
            "login", url, "alice", "--password-stdin", "--device-name", "laptop", stdin: "correct horse\n")
        let id = try await setup.phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("edit", id, "--body", "oat milk\neggs")
        try await setup.laptop.ok("edit", id, "--body", "whole milk\neggs")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")  // the laptop's text becomes the copy
        try await setup.phone.ok("sync")

        let diff = try await setup.phone.ok("diff", id)
        #expect(diff.contains("--- original \(id.suffix(8)) (this device)"), "\(diff)")
        #expect(diff.contains("(typed on laptop)"), "\(diff)")
        let conflicts = try await setup.laptop.ok("conflicts")
        #expect(conflicts.contains("(typed on phone)"), "\(conflicts)")
        #expect(conflicts.contains("(this device)"), "\(conflicts)")

        try await setup.phone.ok("resolve", id, "--keep", "mine")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        for device in [setup.phone, setup.laptop] {
            let notes = try await device.notes()
            #expect(notes.map(\.body) == ["oat milk\neggs"], "\(notes)")
        }
    }
}

/// A `quire` command left running (`watch`), its standard output collected in a file.
final class BackgroundQuire: @unchecked Sendable {
    // `process` is started once and only signalled after; the output file is read-only here.
    private let process: ChildProcess
    private let outputFile: URL

    private init(process: ChildProcess, outputFile: URL) {
        self.process = process
        self.outputFile = outputFile
    }

    static func start(_ device: CLIDevice, _ arguments: String...) throws -> BackgroundQuire {
        let outputFile = device.directory.deletingLastPathComponent()
            .appendingPathComponent("\(device.directory.lastPathComponent)-\(UUID().uuidString.prefix(6)).out")
        let process = try ChildProcess(
            [try BuiltProducts.executable("quire").path, "--data-dir", device.directory.path] + arguments,
            stdout: .file(outputFile.path), stderr: .null)
        return BackgroundQuire(process: process, outputFile: outputFile)
    }

    var output: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// SIGINT, as Ctrl-C: `watch` stops cleanly; waits for it to exit.
    func stop() {
        process.signal(SIGINT)
        process.wait()
    }
}
