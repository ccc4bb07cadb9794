// MARK: - help, version

extension QuireCommandLine {
    /// `quire help [COMMAND]`: the overview, or one command's help; `--markdown`: the README's
    /// usage section.
    func help(_ arguments: Arguments) throws {
        if arguments.flag("markdown") {
            _ = try arguments.expectPositionals([])
            console.out(HelpText.markdown)
            return
        }
        guard let name = arguments.positionals.first else {
            console.out(HelpText.overview)
            return
        }
        _ = try arguments.expectPositionals(["command"])
        console.out(HelpText.help(for: try Self.command(named: name)))
    }

    func version(_ arguments: Arguments) throws {
        _ = try arguments.expectPositionals([])
        console.out(HelpText.version)
    }

    /// The command called `name`, or a usage error that suggests the nearest one.
    static func command(named name: String) throws -> Command {
        if let command = CommandTable.command(named: name) { return command }
        let hint = CommandTable.suggestion(for: name).map { "; did you mean '\($0)'?" } ?? ""
        throw CLIError(
            code: .usage, message: "unknown command '\(name)'\(hint)", hint: "Run 'quire help' for the list.")
    }
}
