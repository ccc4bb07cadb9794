/// A failure the CLI reports as one line on stderr with an exit code.
struct CLIError: Error {
    var code: ExitCode
    var message: String

    static func usage(_ message: String) -> CLIError { CLIError(code: .usage, message: message) }
    static func data(_ message: String) -> CLIError { CLIError(code: .dataError, message: message) }
}
