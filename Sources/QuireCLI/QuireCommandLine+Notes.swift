import Foundation
import QuireClient
import QuireDomain

// MARK: - new, edit, rm, ls, show

extension QuireCommandLine {
    func newNote(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        guard let title = try titleArgument(arguments.options["title"]) else {
            throw CLIError.usage("'new' needs --title (and optionally --body)")
        }
        let body = try bodyArgument(arguments.options["body"]) ?? ""
        let device = try openDevice()
        let id = NoteID()
        try await device.notes.save(id: id, title: title, body: body)
        console.out(id.description)
    }

    func editNote(_ arguments: Arguments) async throws {
        let id = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        for file in TextEditor.leftovers(in: device.directory) {
            console.err(
                "quire: an earlier 'quire edit' was interrupted; the text it held is in \(file.path) "
                    + "(delete the file once you have what you need)")
        }
        let note = try await resolveNote(id, in: device)
        var title = try titleArgument(arguments.options["title"]) ?? note.title
        var body = try bodyArgument(arguments.options["body"]) ?? note.body
        if arguments.options["title"] == nil, arguments.options["body"] == nil {
            (title, body) = try TextEditor(directory: device.directory).edit(title: note.title, body: note.body)
        }
        guard title != note.title || body != note.body else {
            console.out("No change to \(Self.name(of: note)).")
            return
        }
        let copiesBefore = try await device.notes.conflictCopies(of: note.id).count
        // A `quire watch` may have pulled another device's edit while the editor was open.
        try await device.notes.save(id: note.id, title: title, body: body, editedFrom: note.text)
        let saved = Self.name(of: note.id, title: title)
        if try await device.notes.conflictCopies(of: note.id).count > copiesBefore {
            console.out("Saved \(saved) as a conflict copy: it changed meanwhile (see quire conflicts).")
        } else {
            console.out("Saved \(saved).")
        }
    }

    func removeNote(_ arguments: Arguments) async throws {
        let id = try arguments.expectPositionals(["id"])[0]
        let device = try openDevice()
        let note = try await resolveNote(id, in: device)
        try await device.notes.delete(note.id)
        console.out("Deleted \(Self.name(of: note)) (undo: quire restore \(note.id.short)).")
    }

    func listNotes(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let order = try NoteListOrder(option: arguments.options["sort"])
        let limit = try Self.positiveInteger(arguments.options["limit"], option: "limit") ?? Int.max
        let device = try openDevice()
        if arguments.flag("json") {
            let created = order == .created ? try await device.database.creationTimes() : [:]
            let creation = { (id: NoteID) in created[id] ?? .distantPast }
            let notes = order.sorted(
                await allNotes(device), id: \.id, title: \.title, updatedAt: \.updatedAt, created: creation)
            try console.json(notes.prefix(limit).map(NoteJSON.init))
            return
        }
        let rows = console.stdoutIsTerminal ? NoteListRows(width: Console.terminalWidth) : nil
        // Each order has an index: read a page at a time, and when piped print each page as it
        // comes, so the first lines appear at once whatever the number of notes.
        var notes: [NoteSummary] = []
        var last: NoteSummary?
        var printed = 0
        while printed + notes.count < limit {
            let page = try await device.notes.summaryPage(
                sortedBy: order.sort, after: last, limit: min(Self.listPageSize, limit - printed - notes.count))
            if rows == nil {
                for line in listLines(page, rows: nil, titleWidth: 0) { console.out(line) }
                printed += page.count
            } else {
                notes += page
            }
            guard let end = page.last, page.count == Self.listPageSize else { break }
            last = end
        }
        guard printed + notes.count > 0 else { return try await printEmptyList(device) }
        guard let rows else { return }
        // A list longer than the terminal goes through $PAGER; piped, never.
        try Pager.show(listLines(notes, rows: rows, titleWidth: rows.titleWidth(notes)), console: console)
    }

    /// How many rows `quire ls` reads at a time.
    static let listPageSize = 500

    /// Says why the list is empty: no notes, or none yet (promise 5).
    private func printEmptyList(_ device: QuireDevice) async throws {
        let status = await currentStatus(device)
        console.out(Self.emptyListMessage(status: status, hasRemote: (try device.credentials.load()) != nil))
    }

    /// The lines of `notes`: for a terminal (`rows`), with dates and previews; else id, title, badge.
    private func listLines(_ notes: [NoteSummary], rows: NoteListRows?, titleWidth: Int) -> [String] {
        var lines: [String] = []
        for note in notes {
            var badge = Self.badge(note.sync)
            if note.syncIssue != nil, note.sync != .refused { badge += badge.isEmpty ? "stuck" : ", stuck" }
            if let rows {
                lines.append(rows.line(for: note, badge: badge, titleWidth: titleWidth))
            } else {
                let title = note.title.isEmpty ? "(untitled)" : TerminalText.oneLine(note.title)
                let id = note.id.short
                lines.append(badge.isEmpty ? "\(id)  \(title)" : "\(id)  \(title)  [\(badge)]")
            }
            if let issue = note.syncIssue { lines.append("          \(issue)") }
        }
        return lines
    }

    func showNote(_ arguments: Arguments) async throws {
        let id = try arguments.expectPositionals(["id"])[0]
        if let reference = arguments.options["version"] {
            guard !arguments.flag("json") else {
                throw CLIError.usage("--version and --json do not go together; use quire history ID --json")
            }
            try await showVersion(id, reference: reference)
            return
        }
        let device = try openDevice()
        let note = try await resolveNote(id, in: device)
        if arguments.flag("json") {
            try console.json(NoteJSON(note))
            return
        }
        console.out(note.title)
        console.out("")
        console.out(note.body)
        if let issue = note.syncIssue {
            console.err("Not synced: \(issue)")
        }
    }

    /// A note as a one-line message names it: `3d33abcd "Groceries"`.
    static func name(of note: Note) -> String { name(of: note.id, title: note.title) }

    static func name(of id: NoteID, title: String) -> String {
        "\(id.short) \"\(title.isEmpty ? "(untitled)" : title)\""
    }

    /// The list badge: empty for a synced note.
    static func badge(_ state: NoteSyncState) -> String {
        switch state {
        case .synced: ""
        case .pending: "not synced"
        case .conflict: "conflict"
        case .refused: "refused by server"
        }
    }

    /// An empty list never reads as "no notes" while that is unknown (promise 5).
    static func emptyListMessage(status: SyncStatus, hasRemote: Bool) -> String {
        if !hasRemote || status.lastSyncedAt != nil {
            return hasRemote ? "No notes yet." : "No notes yet. Create one with: quire new --title T"
        }
        if status.lastRunFailed {
            return "No notes on this device yet: the first sync failed (\(status.lastError ?? "unknown error")). "
                + "Run 'quire sync' to try again."
        }
        return "No notes on this device yet: it has not synced. Run 'quire sync'."
    }
}
