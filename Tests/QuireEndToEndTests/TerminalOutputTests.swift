import Foundation
import QuireTestSupport
import Testing

/// A note's text must not drive the terminal it is listed on: an imported file whose text held
/// `ESC[2J` cleared the screen under `quire ls` (hiding the rows above it) and `ESC]0;…BEL`
/// retitled the window; a title with a line break broke the list into two rows. On a terminal
/// each control character now shows as `cat -v` shows it; piped, every byte goes through.
@Suite struct TerminalOutputTests {
    static let evil = "see below \u{1B}[2J\u{1B}[H\u{1B}]0;HACKED\u{07} text"

    @Test func aListOnATerminalShowsControlCharactersAsText() async throws {
        let root = try TemporaryDirectory(prefix: "quire-terminal")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.ok("new", "--title", "evil \u{1B}]0;PWNED\u{07}", "--body", Self.evil)
        try await device.ok("new", "--title", "first-row", "--body", "visible")

        // `script` gives `quire` a terminal for its standard output.
        let quire = try BuiltProducts.executable("quire").path
        let shown = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/script"),
            ["-qec", "COLUMNS=120 '\(quire)' --data-dir '\(device.directory.path)' ls", "/dev/null"])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        #expect(!shown.stdout.contains("\u{1B}"), "no escape reaches the terminal: \(shown.stdout.debugDescription)")
        #expect(!shown.stdout.contains("\u{07}"))
        #expect(shown.stdout.contains("first-row"))
        #expect(shown.stdout.contains("^[]0;PWNED^G"), "\(shown.stdout.debugDescription)")

        // Piped (a script, a file), the text is the note's own.
        let evilNote = try #require(try await device.notes().first { $0.body == Self.evil })
        let piped = try await device.ok("show", evilNote.id)
        #expect(piped.contains(Self.evil))
    }

    @Test func aTitleWithALineBreakIsOneRowOfTheList() async throws {
        let root = try TemporaryDirectory(prefix: "quire-terminal")
        defer { root.remove() }
        let device = CLIDevice(root, "d")
        try await device.importNoteTitledWithALineBreak(root)
        let listed = try await device.ok("ls")
        #expect(listed.split(separator: "\n").count == 1, "\(listed.debugDescription)")
        #expect(listed.contains("first second"))
    }
}
