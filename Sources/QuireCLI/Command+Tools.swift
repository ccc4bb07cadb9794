// MARK: - Help, version, and tools that need no device

extension Command {
    static let tools: [Command] = [
        Command(
            name: "help", group: .tools, summary: "list the commands, or show one command's help",
            usage: "help [COMMAND]",
            options: [CommandOption("markdown", "print the README's usage section (made from the same table)")],
            examples: ["quire help", "quire help edit"], run: { try $0.help($1) }),
        Command(
            name: "version", group: .tools, summary: "print the version (also: quire --version)",
            usage: "version", examples: ["quire version"], run: { try $0.version($1) }),
    ]
}
