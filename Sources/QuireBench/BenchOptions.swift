import Foundation

/// The command line of `quire-bench`, parsed.
///
/// `quire-bench [--quick] [--only NAME[,NAME]] [--first-sync-notes N[,N]] [--json] [--write-docs PATH]`.
/// Unknown flags, a missing value, an unknown benchmark name or a size that is not a positive
/// number are usage errors (exit 64).
struct BenchOptions: Equatable {
    /// Smaller sizes for a smoke run that takes seconds.
    var quick = false
    /// Benchmarks to run, by name; empty runs all of them.
    var only: [String] = []
    /// Prints the results as JSON instead of the table.
    var json = false
    /// Rewrites the results section of this Markdown file.
    var docsPath: String?
    /// The first-sync benchmark's sizes, in notes; nil: 10,000 and 100,000 (the quick size with
    /// `--quick`).
    var firstSyncNotes: [Int]?

    /// What went wrong with the command line; printed with the usage text.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage = """
        usage: quire-bench [--quick] [--only NAME[,NAME...]] [--first-sync-notes N[,N...]] [--json]
                           [--write-docs PATH]

          --quick          smaller sizes, for a smoke run (seconds)
          --only NAMES     run only these benchmarks (comma-separated): \
        \(BenchSuite.names.joined(separator: ", "))
          --first-sync-notes N
                           first-sync at these sizes (comma-separated; default 10000,100000,
                           with --quick 500)
          --json           print the results as JSON instead of a table
          --write-docs P   rewrite the results section of P (e.g. docs/benchmarks.md)

        Build in release first: swift build -c release (the photo-upload row runs the built quire too)
        """

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var index = 0
        func value(after flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError(description: "\(flag) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--quick":
                options.quick = true
            case "--json":
                options.json = true
            case "--only":
                let names = try value(after: argument).split(separator: ",").map(String.init)
                for name in names where !BenchSuite.names.contains(name) {
                    throw UsageError(description: "unknown benchmark '\(name)'")
                }
                options.only += names
            case "--write-docs":
                options.docsPath = try value(after: argument)
            case "--first-sync-notes":
                let sizes = try value(after: argument).split(separator: ",").map { Int($0) }
                guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                    throw UsageError(description: "--first-sync-notes takes positive numbers, e.g. 10000,100000")
                }
                options.firstSyncNotes = sizes.compactMap { $0 }
            default:
                throw UsageError(description: "unknown argument '\(argument)'")
            }
            index += 1
        }
        return options
    }

    /// Whether the benchmark called `name` should run.
    func includes(_ name: String) -> Bool {
        only.isEmpty || only.contains(name)
    }

    /// The command line as typed, for the docs.
    var commandLine: String {
        var parts = [".build/release/quire-bench"]
        if quick { parts.append("--quick") }
        if !only.isEmpty { parts.append("--only \(only.joined(separator: ","))") }
        if let firstSyncNotes {
            parts.append("--first-sync-notes \(firstSyncNotes.map(String.init).joined(separator: ","))")
        }
        if json { parts.append("--json") }
        if let docsPath { parts.append("--write-docs \(docsPath)") }
        return parts.joined(separator: " ")
    }
}
