import Foundation
import QuireTestSupport
import Testing

/// `quire export DIR` and `quire import PATH...` through the built binary: Markdown files, one per
/// note, that come back as the same notes byte for byte, and never twice.
@Suite struct CLIExportImportTests {
    /// Titles and bodies that break naive exporters: path characters, no title, accents and emoji,
    /// two notes with one title, a body without a final newline, front matter and headings inside
    /// a body, CRLF line ends, an empty body.
    static let awkward: [(title: String, body: String)] = [
        ("Groceries", "milk\neggs\n"),
        ("a/b: c? <d> | e*", "path characters"),
        ("", "a note with no title"),
        ("Café ☕ notes", "crème brûlée"),
        ("Same", "first of two"),
        ("Same", "second of two"),
        ("Markdown inside", "---\ntitle: not this\n---\n# Not a title\n\ntext"),
        ("Windows", "line one\r\nline two\r\n"),
        ("Empty body", ""),
        ("..", "a title that is a path"),
    ]

    static func texts(_ device: CLIDevice) async throws -> [String] {
        try await device.notes().map { "\($0.title)\u{0}\($0.body)" }.sorted()
    }

    @Test func exportThenImportIntoAnEmptyDeviceGivesTheSameNotesByteForByte() async throws {
        let root = try TemporaryDirectory(prefix: "quire-export")
        defer { root.remove() }
        let phone = CLIDevice(root, "phone")
        for note in Self.awkward {
            try await phone.ok("new", "--title", note.title, "--body", "-", stdin: note.body)
        }
        let exported = root.path("exported")
        #expect(
            try await phone.ok("export", exported.path) == "Exported \(Self.awkward.count) notes to \(exported.path).")
        let files = try FileManager.default.contentsOfDirectory(atPath: exported.path).sorted()
        #expect(files.count == Self.awkward.count)
        #expect(Set(files.map { $0.lowercased() }).count == files.count)
        for file in files {
            #expect(file.hasSuffix(".md"))
            #expect(!file.hasPrefix("."))
            #expect(!file.contains("/") && !file.contains(":") && !file.contains("?") && !file.contains("*"))
        }
        let groceries = try String(contentsOf: exported.appendingPathComponent("Groceries.md"), encoding: .utf8)
        #expect(groceries.hasPrefix("---\ntitle: \"Groceries\"\n"))
        #expect(groceries.hasSuffix("---\nmilk\neggs\n"))

        let laptop = CLIDevice(root, "laptop")
        let imported = try await laptop.ok("import", exported.path)
        #expect(imported == "Imported \(Self.awkward.count) notes.")
        #expect(try await Self.texts(laptop) == Self.texts(phone))

        // The same export again: nothing new.
        let again = try await laptop.ok("import", exported.path)
        #expect(again == "Imported 0 notes (\(Self.awkward.count) already here).")
        #expect(try await laptop.notes().count == Self.awkward.count)
    }

    @Test func importTakesTheTitleFromFrontMatterAHeadingOrTheFileName() async throws {
        let root = try TemporaryDirectory(prefix: "quire-import")
        defer { root.remove() }
        let folder = root.path("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = [
            "Shopping list.txt": "milk\nbread",
            "plan.md": "# The plan\n\nstep one\nstep two\n",
            "meta.md": "---\ntitle: Front matter title\ntags: [a]\n---\nbody here",
            "photo.png": "not text",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let device = CLIDevice(root, "d")
        let result = try await device.run("import", folder.path)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "Imported 3 notes.\n")
        #expect(result.stderr.contains("photo.png"))
        let notes = try await device.notes().map { "\($0.title)|\($0.body)" }.sorted()
        // The keys Quire does not read (tags here) stay with the text, as front matter of its own.
        #expect(
            notes == [
                "Front matter title|---\ntags: [a]\n---\nbody here", "Shopping list|milk\nbread",
                "The plan|step one\nstep two\n",
            ])
    }

    /// Files that open with a `---` line that is not front matter (a horizontal rule, a block of
    /// prose between rules), or front matter with keys Quire does not read (an Obsidian vault's
    /// tags, aliases and dates): import used to drop every line up to the second `---`.
    @Test func importKeepsEveryLineOfAFileThatOpensWithARule() async throws {
        let root = try TemporaryDirectory(prefix: "quire-import-rules")
        defer { root.remove() }
        let folder = root.path("in")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let files = [
            "hr.md": "---\nShopping list\nmilk and eggs\n---\nend\n",
            "hr2.txt": "---\n\nA paragraph between rules.\n\n---\nmore\n",
            "meeting.md": "---\nMeeting with Ana: budget is 40k\nDecision: go\n---\nfollow-ups below\n",
            "vault.md":
                "---\ntitle: Trip ideas\ntags: [travel, 2027]\naliases:\n  - holidays\ndate: 2026-01-02\n---\nLisbon\n",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let device = CLIDevice(root, "d")
        #expect(try await device.ok("import", folder.path) == "Imported 4 notes.")
        let notes = try await device.notes().map { "\($0.title)|\($0.body)" }.sorted()
        #expect(
            notes == [
                "Trip ideas|---\ntags: [travel, 2027]\naliases:\n  - holidays\ndate: 2026-01-02\n---\nLisbon\n",
                "hr2|---\n\nA paragraph between rules.\n\n---\nmore\n",
                "hr|---\nShopping list\nmilk and eggs\n---\nend\n",
                "meeting|---\nMeeting with Ana: budget is 40k\nDecision: go\n---\nfollow-ups below\n",
            ])
    }

    @Test func aConflictCopyIsExportedMarkedAsOne() async throws {
        let root = try TemporaryDirectory(prefix: "quire-export")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let phone = CLIDevice(root, "phone")
        let laptop = CLIDevice(root, "laptop")
        try await phone.ok(
            "register", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        try await laptop.ok(
            "login", server.url.absoluteString, "ann", "--password-stdin", stdin: "maple orbit lantern\n")
        let id = try await phone.ok("new", "--title", "Plan", "--body", "meet at noon")
        try await phone.ok("sync")
        try await laptop.ok("sync")
        try await phone.ok("edit", id, "--body", "meet at one")
        try await laptop.ok("edit", id, "--body", "meet at two")
        try await phone.ok("sync")
        try await laptop.ok("sync")
        let copy = try #require(try await laptop.notes().first { $0.conflictOf == id })

        let exported = root.path("exported")
        try await laptop.ok("export", exported.path)
        let texts = try FileManager.default.contentsOfDirectory(atPath: exported.path).map {
            try String(contentsOf: exported.appendingPathComponent($0), encoding: .utf8)
        }
        let marked = texts.filter { $0.contains("conflict-copy-of: \(id)\n") }
        #expect(marked.count == 1)
        #expect(marked.first?.contains("id: \(copy.id)\n") == true)
    }

    @Test func exportRefusesAPathThatIsAFile() async throws {
        let root = try TemporaryDirectory(prefix: "quire-export")
        defer { root.remove() }
        let file = root.path("file")
        try Data().write(to: file)
        let device = CLIDevice(root, "d")
        try await device.ok("new", "--title", "A")
        let result = try await device.run("export", file.path)
        #expect(result.exitCode == 74)
        #expect(result.stderr.contains("not a directory"))
    }
}
