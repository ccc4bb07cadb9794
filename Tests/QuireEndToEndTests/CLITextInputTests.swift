import Foundation
import QuireTestSupport
import Testing

/// Text that reaches a note from outside (an option, standard input, an editor, a file to import)
/// is taken as typed or refused with a reason, never changed on the way: a title with a line
/// break was split into the body by an edit that changed nothing; bytes that are not UTF-8
/// became U+FFFD without a word; and one such file stopped a whole folder's import.
@Suite struct CLITextInputTests {
    /// An editor that changes nothing (`true`) on a note whose title has a line break (from
    /// another device, or a file's name) leaves the note as it was.
    @Test func anEditThatChangesNothingLeavesATitleWithALineBreakWhole() async throws {
        let root = try TemporaryDirectory(prefix: "quire-text")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.importNoteTitledWithALineBreak(root)
        let before = try #require(try await device.notes().first)

        let edit = try await device.run("edit", before.id, environment: ["EDITOR": "true"])

        #expect(edit.exitCode == 0, "\(edit.stderr)")
        #expect(edit.stdout.hasPrefix("No change"), "\(edit.stdout)")
        #expect(try await device.notes().first == before)
    }

    /// The editor's file ends with a line break, so a line appended to it (`>>`) is a line of its
    /// own; it used to join the body's last line ("meetappended").
    @Test func aLineAppendedByTheEditorIsALineOfItsOwn() async throws {
        let root = try TemporaryDirectory(prefix: "quire-text")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let id = try await device.ok("new", "--title", "Plan", "--body", "meet")
        let editor = root.path("appending-editor.sh")
        try "#!/bin/sh\nprintf 'appended\\n' >> \"$1\"\n".write(to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let edit = try await device.run("edit", id, environment: ["EDITOR": editor.path])
        #expect(edit.exitCode == 0, "\(edit.stderr)")
        #expect(try await device.notes().first?.body == "meet\nappended")
        // An editor that changes nothing still changes nothing.
        #expect(try await device.run("edit", id, environment: ["EDITOR": "true"]).stdout.hasPrefix("No change"))
    }

    @Test func aTitleWithALineBreakIsRefusedWithAReason() async throws {
        let root = try TemporaryDirectory(prefix: "quire-text")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let result = try await device.run("new", "--title", "first\nsecond", "--body", "x")
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("one line"), "\(result.stderr)")
        #expect(try await device.notes().isEmpty)
    }

    @Test func textThatIsNotUTF8IsRefusedNotMangled() async throws {
        let root = try TemporaryDirectory(prefix: "quire-text")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        let latin1 = String(decoding: [0x63, 0x61, 0x66, 0xE9], as: UTF8.self)  // what mangling gives
        // Standard input: bytes "café" in Latin-1 are refused, nothing is made.
        let fromStdin = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "printf 'caf\\351' | \"$0\" --data-dir \"$1\" new --title latin --body -",
                try BuiltProducts.executable("quire").path, device.directory.path,
            ])
        #expect(fromStdin.exitCode == 65, "\(fromStdin.stderr)")
        #expect(fromStdin.stderr.contains("not UTF-8"), "\(fromStdin.stderr)")
        #expect(try await device.notes().isEmpty)

        // An editor that writes Latin-1: nothing is saved, and what it wrote is kept to convert.
        let id = try await device.ok("new", "--title", "Plan", "--body", "meet")
        let editor = root.path("latin1-editor.sh")
        try "#!/bin/sh\nprintf '\\ncaf\\351 from the editor\\n' >> \"$1\"\n".write(
            to: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let edit = try await device.run("edit", id, environment: ["EDITOR": editor.path])
        #expect(edit.exitCode == 65, "\(edit.stderr)")
        #expect(edit.stderr.contains("not UTF-8"), "\(edit.stderr)")
        #expect(try await device.notes().first?.body == "meet")
        #expect(try await device.notes().first?.body.contains(latin1) == false)
        let kept = try FileManager.default.contentsOfDirectory(atPath: device.directory.path)
            .filter { $0.hasPrefix("edit-") }
        #expect(kept.count == 1, "the editor's file is kept: \(kept)")
        #expect(edit.stderr.contains(kept.first ?? "-"), "\(edit.stderr)")

        // Import: the other files of the folder are imported; the Latin-1 one is named, exit 65.
        let folder = root.path("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data([0x63, 0x61, 0x66, 0xE9, 0x0A]).write(to: folder.appendingPathComponent("latin1.txt"))
        try Data("ok\n".utf8).write(to: folder.appendingPathComponent("good.md"))
        let imported = try await device.run("import", folder.path)
        #expect(imported.exitCode == 65, "\(imported.stderr)")
        #expect(imported.stdout == "Imported 1 note.\n")
        #expect(imported.stderr.contains("latin1.txt") && imported.stderr.contains("not UTF-8"), "\(imported.stderr)")
        #expect(try await device.notes().map(\.title).sorted() == ["Plan", "good"])
    }
}
