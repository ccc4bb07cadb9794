// MARK: - The sync commands

extension Command {
    static let sync: [Command] = [
        Command(
            name: "sync", group: .sync, summary: "push local changes, then pull the others' changes",
            usage: "sync [--json [--progress]] [--verbose]",
            options: [
                .json, CommandOption("progress", "with --json: progress events on stderr, one JSON object a line"),
                .verbose,
            ],
            examples: ["quire sync", "quire sync --json --progress 2>progress.jsonl"],
            details: "On a terminal, a line on stderr shows how many notes were sent and received of how many. "
                + "Trips sync after the notes, then queued photos upload (resuming where they stopped) and "
                + "are attached; a photo the server refuses is kept and the exit is 75.",
            run: { try await $0.sync($1) }),
        Command(
            name: "watch", group: .sync,
            summary: "stay in sync until Ctrl-C, printing the status and each note that arrives",
            usage: "watch [--json] [--verbose]",
            options: [.json, CommandOption("verbose", short: "v", "print the sync metrics when it stops")],
            examples: ["quire watch"],
            details: "Also pushes the saves other quire processes make on this device.",
            run: { try await $0.watch($1) }),
        Command(
            name: "status", group: .sync,
            summary: "the sync label, pending changes, last sync and last failure",
            usage: "status [--json] [--verbose]",
            options: [.json, CommandOption("verbose", short: "v", "also print the sync metrics")],
            examples: ["quire status", "quire status --json"],
            details: "Photos waiting to upload show as 'uploading 3 photos, 41 of 120 MB' (--json: photos.uploading, "
                + "photos.uploadedBytes, photos.totalBytes, photos.failed).",
            run: { try await $0.status($1) }),
    ]
}
