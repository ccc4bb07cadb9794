import Foundation

/// Turns result rows into the terminal table, JSON, or the Markdown of docs/benchmarks.md.
enum ReportRenderer {
    static let headers = ["benchmark", "measured", "baseline", "ratio", "target", "met?"]

    static func cells(_ row: BenchRow) -> [String] {
        [row.label, row.measured, row.baseline, row.ratioText, row.target, row.metText]
    }

    /// A fixed-width table, then the notes of the rows that have one, numbered.
    static func table(_ rows: [BenchRow]) -> String {
        let body = rows.map(cells)
        let widths = headers.indices.map { column in
            ([headers[column]] + body.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
                .joined(separator: " | ")
        }
        var lines = [line(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-")]
        lines += body.map(line)
        let notes = rows.enumerated().compactMap { index, row in row.note.map { "  [\(index + 1)] \($0)" } }
        if !notes.isEmpty { lines += ["", "notes:"] + notes }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ rows: [BenchRow], environment: RunEnvironment) throws -> String {
        struct Output: Encodable {
            var environment: RunEnvironment
            var results: [BenchRow]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(Output(environment: environment, results: rows)), as: UTF8.self)
            + "\n"
    }

    /// The Markdown results section: how it was run, the table, and each row's note.
    static func markdown(_ rows: [BenchRow], environment: RunEnvironment) -> String {
        func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        var lines = [
            "Command: `\(environment.command)`  ",
            "Date: \(environment.date)  ",
            "Machine: \(environment.machine), \(environment.cores) cores, \(environment.os)  ",
            "Build: \(environment.buildMode)",
            "",
            "| " + headers.joined(separator: " | ") + " |",
            "|" + String(repeating: "---|", count: headers.count),
        ]
        lines += rows.map { "| " + cells($0).map(escape).joined(separator: " | ") + " |" }
        let notes = rows.filter { $0.note != nil }
        if !notes.isEmpty {
            lines += ["", "Notes from the run:", ""]
            lines += notes.map { "- **\(escape($0.label))**: \($0.note ?? "")" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Where and how the run happened, for the docs.
struct RunEnvironment: Codable {
    var command: String
    var date: String
    var machine: String
    var cores: Int
    var os: String
    var buildMode: String

    static func current(options: BenchOptions) -> RunEnvironment {
        var name = utsname()
        uname(&name)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        #if DEBUG
            let mode = "debug (numbers are not representative: build with -c release)"
        #else
            let mode = "release"
        #endif
        return RunEnvironment(
            command: options.commandLine, date: formatter.string(from: Date()),
            machine: field(name.machine), cores: ProcessInfo.processInfo.activeProcessorCount,
            os: "\(field(name.sysname)) \(field(name.release))", buildMode: mode)
    }
}
