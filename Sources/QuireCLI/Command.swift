/// One `quire` command: its name, a one-line summary, its usage line, its options, examples, and
/// what runs it. ``CommandTable`` lists them all; parsing, `quire help`, each command's `--help`
/// and the README's usage section are all made from these values.
///
/// Adding a command is adding one value to a table (a `Command+Area.swift` file) and its handler:
/// help, the command list and "did you mean" come with it.
struct Command: Sendable {
    var name: String
    var group: CommandGroup
    /// Lower case, no final period: `create a note; prints its id`.
    var summary: String
    /// After `quire `: `new --title T [--body B|-]`.
    var usage: String
    var options: [CommandOption] = []
    /// Whole command lines, as typed (`quire new --title "Groceries"`).
    var examples: [String]
    /// More to say than the summary (a paragraph), or nil.
    var details: String?
    /// When set, every failure of this command, usage errors included, exits with this code
    /// (`merge-file` keeps diff3's 0 / 1 / 2).
    var failureCode: ExitCode?
    var run: @Sendable (QuireCommandLine, Arguments) async throws -> Void

    func option(named name: String) -> CommandOption? { options.first { $0.name == name } }
    func option(short: Character) -> CommandOption? { options.first { $0.short == short } }
}
