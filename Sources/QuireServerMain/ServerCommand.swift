import Foundation

/// What `quire-server` was asked to do, parsed from its arguments.
enum ServerCommand: Equatable {
    struct ServeOptions: Equatable {
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var databasePath = "./quire-server.sqlite"
        var tombstoneDays = 30
    }

    case serve(ServeOptions)
    case addAccount(username: String, databasePath: String)
    case help

    static let usage = """
        Usage:
          quire-server [--host H] [--port P] [--db FILE] [--tombstone-days N]
          quire-server add-account NAME [--db FILE]
          quire-server --help

        Serves Quire's sync API v1 over HTTP; `add-account` creates an account and prints its
        access token (only the token, one line).

        Options:
          --host H             address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
          --port P             port to listen on, 0 for any free one (default 8080)
          --db FILE            the SQLite database file (default ./quire-server.sqlite)
          --tombstone-days N   keep deleted notes' tombstones N days (default 30); clients whose
                               cursor is older resync in full

        Exit status: 0 success, 64 usage error, 1 any other failure (port in use, unreadable
        database, username taken); the message on stderr says what to do.
        """

    /// Parses the arguments after the program name. Throws ``UsageError`` for anything unknown.
    static func parse(_ arguments: [String]) throws(UsageError) -> ServerCommand {
        if arguments.contains("--help") || arguments.contains("-h") { return .help }
        var remaining = arguments[...]
        if remaining.first == "add-account" {
            remaining.removeFirst()
            guard let name = remaining.first, !name.hasPrefix("-") else {
                throw UsageError("add-account needs a NAME")
            }
            remaining.removeFirst()
            var options = ServeOptions()
            try parseFlags(&remaining, into: &options, allowed: ["--db"])
            return .addAccount(username: name, databasePath: options.databasePath)
        }
        var options = ServeOptions()
        try parseFlags(
            &remaining, into: &options,
            allowed: ["--host", "--port", "--db", "--tombstone-days"])
        return .serve(options)
    }

    private static func parseFlags(
        _ arguments: inout ArraySlice<String>, into options: inout ServeOptions,
        allowed: Set<String>
    ) throws(UsageError) {
        while let argument = arguments.popFirst() {
            var flag = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard allowed.contains(flag) else {
                throw UsageError(
                    argument.hasPrefix("-") ? "unknown option \(flag)" : "unexpected '\(argument)'")
            }
            guard let text = value ?? arguments.popFirst() else {
                throw UsageError("\(flag) needs a value")
            }
            switch flag {
            case "--host":
                guard !text.isEmpty else { throw UsageError("--host needs an address") }
                options.host = text
            case "--port":
                guard let port = UInt16(text) else {
                    throw UsageError("--port must be a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            case "--db":
                guard !text.isEmpty else { throw UsageError("--db needs a file path") }
                options.databasePath = text
            default:
                guard let days = Int(text), days >= 1, days <= 36_500 else {
                    throw UsageError("--tombstone-days must be a whole number of days, at least 1")
                }
                options.tombstoneDays = days
            }
        }
    }
}

/// A command line `quire-server` does not understand: exit 64 with the usage.
struct UsageError: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
