/// A command's arguments after parsing: positionals, options with values, and flags.
///
/// Options are `--name value` or `--name=value`; flags take no value. Anything starting with `-`
/// that the command does not declare is a usage error (exit 64), as is a missing value.
struct Arguments {
    var positionals: [String] = []
    var options: [String: String] = [:]
    var flags: Set<String> = []

    /// Parses `words` against the options and flags a command accepts (names without dashes).
    init(_ words: [String], options allowedOptions: Set<String>, flags allowedFlags: Set<String>) throws {
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
            guard word.hasPrefix("--") else {
                throw CLIError.usage("unknown option '\(word)'")
            }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw CLIError.usage("'--\(name)' takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                if let inlineValue {
                    options[name] = inlineValue
                } else {
                    guard index < words.count else {
                        throw CLIError.usage("'--\(name)' needs a value")
                    }
                    options[name] = words[index]
                    index += 1
                }
            } else {
                throw CLIError.usage("unknown option '--\(name)'")
            }
        }
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
