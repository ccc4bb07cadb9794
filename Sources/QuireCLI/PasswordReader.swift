import Foundation
import QuireClient

/// Reads passwords: from standard input with `--password-stdin` (one per line), or from the terminal
/// with echo off. Never from the command line, where other users could see it in `ps`.
struct PasswordReader {
    let fromStandardInput: Bool

    /// True when standard input is a terminal a person can answer at.
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads one password (or another secret, `what`), prompting with `prompt` on stderr when
    /// reading from the terminal.
    /// - Throws: a usage error when stdin is not a terminal and `--password-stdin` was not given, or
    ///   when the password is empty.
    func read(_ prompt: String, what: String = "password") throws -> String {
        let password: String?
        if fromStandardInput {
            password = readLine(strippingNewline: true)
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CLIError.usage("no terminal to ask for the password; pass it with --password-stdin")
            }
            password = Self.readWithoutEcho(prompt)
        }
        guard let password, !password.isEmpty else {
            throw CLIError(code: .failure, message: "the \(what) is empty; nothing was changed", hint: "")
        }
        return password
    }

    /// Reads a new password for `username`; on a terminal, twice, and they must match. A weak one
    /// (``PasswordStrength``) is refused as soon as it is typed, before it is asked again.
    /// - Throws: exit 1 with what is wrong and how to fix it, for a weak or mismatched password.
    func readNew(_ prompt: String, username: String) throws -> String {
        let password = try read(prompt)
        let strength = PasswordStrength(password: password, username: username)
        guard strength.isAcceptable else {
            throw CLIError(
                code: .failure,
                message: "the password is too weak: \(strength.explanation). \(strength.advice) "
                    + "Nothing was sent to the server.",
                hint: "")
        }
        guard !fromStandardInput else { return password }
        guard try read("Repeat it: ") == password else {
            throw CLIError(code: .failure, message: "the passwords do not match; nothing was changed", hint: "")
        }
        return password
    }

    private static func readWithoutEcho(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if isTerminal {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        defer {
            if isTerminal { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
