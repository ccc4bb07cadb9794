// MARK: - The notes commands: they work with no network

extension Command {
    static let notes: [Command] = [
        Command(
            name: "new", group: .notes, summary: "create a note; prints its id",
            usage: "new --title T [--body B|-]",
            options: [.title, .body],
            examples: [#"quire new --title "Groceries" --body "milk""#],
            run: { try await $0.newNote($1) }),
        Command(
            name: "edit", group: .notes, summary: "change a note; with neither flag, opens $EDITOR",
            usage: "edit ID [--title T] [--body B|-]",
            options: [.title, .body],
            examples: ["quire edit 3d33 --body - < groceries.txt", "quire edit 3d33"],
            details: """
                With neither --title nor --body, opens $EDITOR (or vi) on the note: the title on the
                first line, a blank line, then the body. Quitting the editor with an error saves
                nothing; a change that arrives meanwhile is merged, never overwritten.
                """,
            run: { try await $0.editNote($1) }),
        Command(
            name: "rm", group: .notes, summary: "delete a note (another device's edit brings it back)",
            usage: "rm ID", examples: ["quire rm 3d33"], run: { try await $0.removeNote($1) }),
        Command(
            name: "ls", group: .notes, summary: "list notes, newest first; unsynced ones are marked",
            usage: "ls [--json]", options: [.json], examples: ["quire ls"],
            run: { try await $0.listNotes($1) }),
        Command(
            name: "search", group: .notes,
            summary: "find notes by words in their title or text, best first (on this device, offline)",
            usage: "search WORDS... [--json] [--limit N]",
            options: [.json, CommandOption("limit", value: "N", "at most N notes (default 20)")],
            examples: ["quire search cafe menu"],
            details: """
                Every word must match, as a whole word or the start of one ("groc" finds "Groceries");
                case and accents do not matter ("cafe" finds "Café"). Titles count most. Matching
                words are bold on a terminal, between ** otherwise. Conflict copies are marked.
                """,
            run: { try await $0.search($1) }),
        Command(
            name: "show", group: .notes, summary: "print one note", usage: "show ID [--json]",
            options: [.json], examples: ["quire show 3d33"], run: { try await $0.showNote($1) }),
    ]
}

extension CommandOption {
    static let title = CommandOption("title", value: "T", "the note's title")
    static let body = CommandOption("body", value: "B|-", "the note's text; - reads it from standard input")
}
