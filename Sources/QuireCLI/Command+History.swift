// MARK: - The history and trash commands

extension Command {
    static let history: [Command] = [
        Command(
            name: "history", group: .history,
            summary: "a note's earlier versions, newest first: version, time, device, size, first line",
            usage: "history ID [--json]", options: [.json], examples: ["quire history 3d33"],
            details: """
                The server keeps every version for a day, then one a day for 30 days, then one a
                week (its own settings may differ), and this device keeps its last 32 texts of each
                note, so history works offline and shows texts that never reached the server (a
                refused change, an edit replaced before it was sent) as L12 and the like. ID may be
                a deleted note's. --json: an array of {version, ref, savedAt, device, title, body,
                size, current, onServer}; version is null for a text only this device kept.
                """,
            run: { try await $0.history($1) }),
        Command(
            name: "trash", group: .history, summary: "deleted notes that can still be restored",
            usage: "trash [--json]", options: [.json], examples: ["quire trash"],
            details: """
                Notes deleted on any device stay restorable until the server purges their tombstone
                (30 days by default); one deleted here whose delete is not yet synced is listed too.
                --json: an array of {id, title, body, deletedAt, onServer}.
                """,
            run: { try await $0.trash($1) }),
        Command(
            name: "restore", group: .history,
            summary: "bring a deleted note back, or make an earlier version the current text",
            usage: "restore ID [--version N]", options: [.version],
            examples: ["quire restore 3d33", "quire restore 3d33 --version 2"],
            details: """
                A restore is an ordinary change on top of the current version, synced like any
                edit: your other devices follow, and the text it replaces stays in the history.
                """,
            run: { try await $0.restore($1) }),
    ]
}

extension CommandOption {
    static let version = CommandOption(
        "version", value: "N", "a version from 'quire history ID' (a number, or L12 for a text only this device kept)")
}
