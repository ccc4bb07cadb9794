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
            name: "rm", group: .notes,
            summary: "delete a note (quire restore ID brings it back; so does another device's edit)",
            usage: "rm ID", examples: ["quire rm 3d33"], run: { try await $0.removeNote($1) }),
        Command(
            name: "ls", group: .notes, summary: "list notes, newest first; unsynced ones are marked",
            usage: "ls [--sort updated|created|title] [--limit N] [--json]",
            options: [
                CommandOption("sort", value: "updated|created|title", "the order (default: updated, newest first)"),
                CommandOption("limit", value: "N", "at most N notes"), .json,
            ],
            examples: ["quire ls", "quire ls --sort title --limit 20"],
            details: """
                On a terminal each row also shows when the note changed and the start of its text,
                and a list longer than the terminal goes through $PAGER (default: less -FRX).
                The newest-first list is read 500 rows at a time by its index (--limit N reads only
                N); piped, each page is printed as it is read, so the first lines come at once
                however many notes there are.
                """,
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
            name: "export", group: .notes,
            summary: "write every note to DIR as a Markdown file (front matter, then the text)",
            usage: "export DIR", examples: ["quire export ~/notes-backup"],
            details: """
                One .md file per note, named after its title (made safe and unique); conflict
                copies say 'conflict-copy-of:' in their front matter. Never overwrites a file. The
                files hold the notes' plain text: they are made readable by you only.
                """,
            run: { try await $0.export($1) }),
        Command(
            name: "import", group: .notes, summary: "add .md and .txt files (or folders of them) as new notes",
            usage: "import PATH...", examples: ["quire import ~/notes-backup"],
            details: """
                The title comes from the front matter's 'title:', else a first line '# Heading',
                else the file name. A file whose title and text a note already has is skipped, so
                importing an export again adds nothing.
                """,
            run: { try await $0.importNotes($1) }),
        Command(
            name: "show", group: .notes, summary: "print one note, or one of its earlier versions",
            usage: "show ID [--version N] [--json]",
            options: [.json, .version], examples: ["quire show 3d33", "quire show 3d33 --version 2"],
            details: """
                --version N prints that version from 'quire history ID' (a number, or L12 for a text
                only this device kept); the note may be deleted.
                """,
            run: { try await $0.showNote($1) }),
    ]
}

extension CommandOption {
    static let title = CommandOption("title", value: "T", "the note's title")
    static let body = CommandOption("body", value: "B|-", "the note's text; - reads it from standard input")
}
