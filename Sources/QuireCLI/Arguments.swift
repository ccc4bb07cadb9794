/// A command's arguments after parsing: positionals, options with values, and flags.
///
/// Options are `--name value` or `--name=value`; flags take no value; a one-letter form (`-p`,
/// `-L value`) stands for the long one where the command declares it. Anything starting with `-`
/// that the command does not declare is a usage error (exit 64), as is a missing value. After
/// `--`, every word is a positional.
struct Arguments: Sendable {
    var positionals: [String] = []
    /// The last value given to each option.
    var options: [String: String] = [:]
    /// Every value of each option, in order (for options that repeat).
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `words` against the options `command` declares.
    init(_ words: [String], for command: Command) throws {
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let (option, inlineValue) = try Self.option(word, in: command)
            let name = option.name
            guard option.takesValue else {
                guard inlineValue == nil else { throw CLIError.usage("'--\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw CLIError.usage("'\(word)' needs a value") }
                value = words[index]
                index += 1
            }
            guard option.repeats || options[name] == nil else {
                throw CLIError.usage("'--\(name)' is given twice")
            }
            options[name] = value
            values[name, default: []].append(value)
        }
    }

    /// Parses `words` against plain sets of option and flag names (long forms only): for
    /// commands that read their own subcommands, such as `quire trip`.
    init(_ words: [String], options: Set<String>, flags: Set<String>) throws {
        let declared =
            options.sorted().map { CommandOption($0, value: "VALUE", "") }
            + flags.sorted().map { CommandOption($0, "") }
        try self.init(
            words,
            for: Command(
                name: "", group: .tools, summary: "", usage: "", options: declared, examples: [],
                run: { _, _ in }))
    }

    /// The option `word` names, and its value when written `--name=value`.
    private static func option(_ word: String, in command: Command) throws -> (CommandOption, String?) {
        if !word.hasPrefix("--") {
            guard word.count == 2, let option = command.option(short: word.last!) else {
                throw CLIError.usage("unknown option '\(word)'")
            }
            return (option, nil)
        }
        var name = String(word.dropFirst(2))
        var inlineValue: String?
        if let equals = name.firstIndex(of: "=") {
            inlineValue = String(name[name.index(after: equals)...])
            name = String(name[..<equals])
        }
        guard let option = command.option(named: name) else {
            throw CLIError.usage("unknown option '--\(name)'")
        }
        return (option, inlineValue)
    }

    /// True when `words` ask for help (`--help` or `-h` before any `--`).
    static func asksForHelp(_ words: [String]) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == "--help" || word == "-h" { return true }
        }
        return false
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Exactly `count` positionals, or a usage error naming what is expected.
    func expectPositionals(_ names: [String]) throws -> [String] {
        guard positionals.count == names.count else {
            let expected = names.isEmpty ? "no arguments" : names.map { "<\($0)>" }.joined(separator: " ")
            throw CLIError.usage(
                "expected \(expected), got \(positionals.count == 0 ? "none" : positionals.joined(separator: " "))")
        }
        return positionals
    }
}
