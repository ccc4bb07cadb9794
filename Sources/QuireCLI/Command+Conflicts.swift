// MARK: - The conflict commands

extension Command {
    static let conflicts: [Command] = [
        Command(
            name: "conflicts", group: .conflicts, summary: "notes with a conflict copy waiting",
            usage: "conflicts [--json]", options: [.json], examples: ["quire conflicts"],
            run: { try await $0.conflicts($1) }),
        Command(
            name: "diff", group: .conflicts,
            summary: "both sides of a conflict as a unified diff, each labelled by where it was typed",
            usage: "diff ID", examples: ["quire diff 3d33"], run: { try await $0.diff($1) }),
        Command(
            name: "resolve", group: .conflicts, summary: "settle a conflict (ID: the copy or its original)",
            usage: "resolve ID --keep original|copy|both",
            options: [
                CommandOption(
                    "keep", value: "original|copy|both",
                    "which text stays; mine or theirs name this device's side or the other's"),
                CommandOption("force", "keep the original even when it was deleted (deletes the copy)"),
            ],
            examples: ["quire resolve 3d33 --keep copy"], run: { try await $0.resolve($1) }),
    ]
}
