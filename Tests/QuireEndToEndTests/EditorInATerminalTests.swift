import Foundation
import QuireTestSupport
import Testing

/// `quire edit ID` with a real terminal editor in a real terminal (issue 11, 1): vim runs in a
/// tmux pane, driven by keystrokes, as a person would use it.
@Suite(.serialized) struct EditorInATerminalTests {
    /// A tmux session running one command, read and typed into like a person at the terminal.
    struct Pane {
        let name = "quire-edit-\(UUID().uuidString.prefix(8))"

        init(command: String) async throws {
            let started = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "24", command])
            try #require(started.exitCode == 0, "tmux: \(started.stderr)")
        }

        func screen() async -> String {
            (try? await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "capture-pane", "-p", "-t", name]))?
                .stdout ?? ""
        }

        func type(_ keys: String...) async throws {
            _ = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "send-keys", "-t", name] + keys)
        }

        /// Ends the session and everything in it; synchronous, so a `defer` really runs it.
        func close() {
            _ = try? ProcessRunner.runBlocking(
                URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "kill-session", "-t", name], timeout: 10)
        }
    }

    static var vimAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/vim")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }

    @Test(.enabled(if: vimAvailable, "needs vim and tmux (scripts/setup.sh installs them)"))
    func vimInARealTerminalEditsTheNote() async throws {
        let root = try TemporaryDirectory(prefix: "quire-vim")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Old title", "--body", "old body")
        let quire = try BuiltProducts.executable("quire").path
        let exitFile = root.path("exit")
        let pane = try await Pane(
            command: "env EDITOR='vim -u NONE -N' \(quire) --data-dir \(device.directory.path) edit \(id); "
                + "echo $? > \(exitFile.path); sleep 30")
        defer { pane.close() }

        // The editor owns the terminal: it shows the note and takes keys.
        let shown = await eventually(timeout: 20) { await pane.screen().contains("old body") }
        let screen = await pane.screen()
        #expect(shown, "the editor never showed the note: \(screen)")
        try await pane.type("G", "o", "typed in vim", "Escape", ":wq", "Enter")

        let exited = await eventually(timeout: 20) {
            FileManager.default.fileExists(atPath: exitFile.path)
        }
        let after = await pane.screen()
        #expect(exited, "quire edit did not end: \(after)")
        let code = (try? String(contentsOf: exitFile, encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(code == "0")
        let note = try #require(try await device.notes().first)
        #expect(note.body == "old body\ntyped in vim")
        // The plain text never sat anywhere but the device's own directory, and is gone.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: device.directory.path)
            .filter { $0.hasPrefix("edit-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test(.enabled(if: vimAvailable, "needs vim and tmux (scripts/setup.sh installs them)"))
    func quittingTheEditorWithoutSavingChangesNothing() async throws {
        let root = try TemporaryDirectory(prefix: "quire-vim")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Kept", "--body", "as it was")
        let quire = try BuiltProducts.executable("quire").path
        let exitFile = root.path("exit")
        let pane = try await Pane(
            command: "env EDITOR='vim -u NONE -N' \(quire) --data-dir \(device.directory.path) edit \(id); "
                + "echo $? > \(exitFile.path); sleep 30")
        defer { pane.close() }
        #expect(await eventually(timeout: 20) { await pane.screen().contains("as it was") })

        try await pane.type("d", "d", "Escape", ":cq", "Enter")  // quit with an error: no save

        #expect(await eventually(timeout: 20) { FileManager.default.fileExists(atPath: exitFile.path) })
        #expect(try await device.notes().first?.body == "as it was")
        #expect(try await device.notes().first?.state == "pending")  // only the first save
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: device.directory.path)
            .filter { $0.hasPrefix("edit-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
