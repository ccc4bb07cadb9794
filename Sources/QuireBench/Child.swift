import Foundation
import QuireSpawn

/// Runs a program to completion and returns its exit status and standard output.
///
/// Blocks the calling thread: the benchmarks call it from the main task while the server runs on
/// its own libmicrohttpd threads and the concurrency pool. Standard error passes through.
enum Child {
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: Data) {
        let child = try ChildProcess([executable] + arguments, stdout: .pipe)
        let data = (try child.output?.readToEnd()) ?? Data()
        return (child.wait(), data)
    }

    /// Runs this program again with a hidden subcommand and decodes the JSON report its last
    /// line prints. Throws a `BenchFailure` naming `what` when it exits non-zero or prints none.
    static func report<Report: Decodable>(_ type: Report.Type, of what: String, _ arguments: [String]) throws
        -> Report
    {
        let run = try run(selfExecutable, arguments)
        guard run.status == 0,
            let line = String(decoding: run.output, as: UTF8.self).split(separator: "\n").last,
            let report = try? JSONDecoder().decode(Report.self, from: Data(line.utf8))
        else { throw BenchFailure("the \(what) child failed (exit \(run.status))") }
        return report
    }

    /// This program's own executable, to re-run it with a hidden subcommand.
    static var selfExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
    }

    /// Whether `name` is an executable on `PATH` (or an absolute path to one); returns its path.
    static func which(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
