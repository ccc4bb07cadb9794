// MARK: - Help, version, and tools that need no device

extension Command {
    static let tools: [Command] = [
        Command(
            name: "help", group: .tools, summary: "list the commands, or show one command's help",
            usage: "help [COMMAND]",
            options: [CommandOption("markdown", "print the README's usage section (made from the same table)")],
            examples: ["quire help", "quire help edit"], run: { try $0.help($1) }),
        Command(
            name: "merge-file", group: .tools,
            summary: "merge two edits of a file as sync does; prints the result (git merge-file's conventions)",
            usage: "merge-file [-p] [-q] [-L LABEL]... MINE BASE THEIRS",
            options: [
                CommandOption("print", short: "p", "print the result on stdout (always; accepted for git's sake)"),
                CommandOption("quiet", short: "q", "do not warn about a clash on stderr"),
                CommandOption(
                    "label", value: "LABEL", short: "L", repeats: true,
                    "names for the conflict markers, in order MINE, BASE, THEIRS (default: the file names)"),
            ],
            examples: ["quire merge-file -p mine.txt base.txt theirs.txt"],
            details: """
                The same three-way merge the sync uses: edits to different lines combine, even
                adjacent ones; a line both sides changed is retried word by word. On a clash, the
                lines between the first and last that differ are printed as both sides between
                <<<<<<< and >>>>>>> markers (the sync keeps both texts as a conflict copy). Exit 0:
                clean; 1: a clash; 2: trouble (a file that cannot be read, not UTF-8, bad usage).
                """,
            failureCode: .trouble, run: { try $0.mergeFile($1) }),
        Command(
            name: "version", group: .tools, summary: "print the version (also: quire --version)",
            usage: "version", examples: ["quire version"], run: { try $0.version($1) }),
    ]
}
