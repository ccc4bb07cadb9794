/// The help `quire` prints, made from ``CommandTable``: the overview, each command's own help, and
/// the README's usage section.
enum HelpText {
    static let version = "quire 0.1.0"

    /// `quire help`: every command with its summary, by group, and what holds for all of them.
    static var overview: String {
        var lines = [
            "quire: offline-first notes that sync, end-to-end encrypted.", "",
            "Usage: quire [--data-dir DIR] <command> [options]",
        ]
        let width = CommandTable.all.map(\.name.count).max() ?? 0
        for group in CommandGroup.allCases {
            let commands = CommandTable.all.filter { $0.group == group }
            guard !commands.isEmpty else { continue }
            lines += ["", group.title + ":"]
            lines += commands.map { "  " + padded($0.name, to: width) + "  " + $0.summary }
        }
        lines += [
            "",
            "Run 'quire help COMMAND' or 'quire COMMAND --help' for its options and an example.",
            "IDs may be shortened to 4 or more characters: the start of what lists show (their last 8),",
            "or any unique start or end of the whole id.",
            "The device lives in --data-dir, or $QUIRE_HOME, or ~/.quire.",
            "Exit codes: 0 ok, 1 failed, 64 usage, 65 unknown note or id, 69 server unreachable,",
            "74 local storage error, 75 sync failed (try again), 77 not allowed (signed out, a wrong",
            "password, or a trip role that may not do it), 78 not signed in.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `quire CMD --help`: the usage line, what it does, its options, examples.
    static func help(for command: Command) -> String {
        var lines = ["quire \(command.name): \(command.summary)", "", "Usage: quire \(command.usage)"]
        if let details = command.details {
            lines += ["", details]
        }
        var options = command.options.map { option in
            let short = option.short.map { "-\($0), " } ?? ""
            return (short + "--" + option.name + (option.value.map { " " + $0 } ?? ""), option.summary)
        }
        options.append(("-h, --help", "show this help"))
        options.append(("--data-dir DIR", "the device to use (every command takes it)"))
        let width = options.map(\.0.count).max() ?? 0
        lines += ["", "Options:"]
        lines += options.map { "  " + padded($0.0, to: width) + "  " + $0.1 }
        lines += ["", command.examples.count == 1 ? "Example:" : "Examples:"]
        lines += command.examples.map { "  " + $0 }
        return lines.joined(separator: "\n")
    }

    /// The README's usage section: every command's examples, commented with its summary, by group,
    /// as a `sh` code block.
    static var markdown: String {
        var lines = ["```sh"]
        // Aligned on the first examples (those carry the comments); a long one pushes only itself.
        let width = CommandTable.all.compactMap(\.examples.first?.count).max() ?? 0
        for group in CommandGroup.allCases {
            let commands = CommandTable.all.filter { $0.group == group }
            guard !commands.isEmpty else { continue }
            if lines.count > 1 { lines.append("") }
            lines.append("# " + group.title)
            for command in commands {
                for (index, example) in command.examples.enumerated() {
                    let comment = index == 0 ? command.summary : ""
                    lines.append(comment.isEmpty ? example : padded(example, to: width) + "  # " + comment)
                }
            }
        }
        lines.append("```")
        return lines.joined(separator: "\n")
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
