/// A failure the CLI reports as one line on stderr with an exit code, and for usage errors a
/// second line saying where to read the usage.
struct CLIError: Error {
    var code: ExitCode
    var message: String
    /// The line after the message; nil: for a usage error, where its command's help is.
    var hint: String?

    init(code: ExitCode, message: String, hint: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
    }

    static func usage(_ message: String) -> CLIError { CLIError(code: .usage, message: message) }
    static func data(_ message: String) -> CLIError { CLIError(code: .dataError, message: message) }
}
