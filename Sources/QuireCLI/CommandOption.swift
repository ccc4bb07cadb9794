/// One option a command takes: `--name VALUE`, or a flag `--name`, with an optional one-letter
/// form (`-p`). The same value drives parsing and help, so help cannot promise an option the
/// parser refuses.
struct CommandOption: Sendable {
    var name: String
    /// The value's placeholder in help (`T`, `DIR`); nil for a flag.
    var value: String?
    var short: Character?
    /// May be given more than once (`-L A -L B`); every value is kept, in order.
    var repeats = false
    /// What it does, in a few words for the help's option list.
    var summary: String

    init(_ name: String, value: String? = nil, short: Character? = nil, repeats: Bool = false, _ summary: String) {
        self.name = name
        self.value = value
        self.short = short
        self.repeats = repeats
        self.summary = summary
    }

    var takesValue: Bool { value != nil }

    // MARK: - Options several commands share

    static let json = CommandOption("json", "print JSON for scripts (field names are stable)")
    static let passwordStdin = CommandOption(
        "password-stdin", "read the password from standard input (one per line) instead of the terminal")
    static let deviceName = CommandOption(
        "device-name", value: "NAME", "how other devices label this one's text (default: the host name)")
    static let verbose = CommandOption("verbose", short: "v", "also print the raw HTTP or network error codes")
    static let caFile = CommandOption(
        "ca-file", value: "FILE", "trust the server's certificate authority in FILE (PEM) instead of the system's")
    static let insecureHTTP = CommandOption(
        "insecure-http", "allow plain http:// to another machine (sign-in keys and tokens travel unencrypted)")
}
