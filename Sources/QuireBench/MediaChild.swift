import Foundation
import QuireMedia

/// The photo-preparing device of the photo benchmark, run as a child process so its peak memory
/// is its own: `quire-bench __media-child FILE DIR strip|keep|none`.
///
/// Prepares FILE into DIR (removing its location with `strip`, keeping it with `keep`; `none`
/// starts and exits, the baseline) and prints one JSON line: ``Report``.
enum MediaChild {
    static let subcommand = "__media-child"

    struct Report: Codable {
        var seconds: Double
        /// `VmHWM` just before exiting, in KiB.
        var peakKiB: Int?
    }

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, ["strip", "keep", "none"].contains(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: \(subcommand) FILE DIR strip|keep|none\n".utf8))
            return 64
        }
        do {
            let (_, elapsed) = try measure {
                if arguments[2] != "none" {
                    _ = try PhotoProcessor().prepare(
                        URL(fileURLWithPath: arguments[0]), keepLocation: arguments[2] == "keep",
                        into: URL(fileURLWithPath: arguments[1]))
                }
            }
            let report = Report(seconds: elapsed.seconds, peakKiB: SyncChild.peakMemoryKiB())
            FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
            return 1
        }
    }

    /// Runs the child on `file` and decodes its report.
    static func run(_ file: URL, into directory: URL, mode: String) throws -> Report {
        let (status, output) = try Child.run(
            Child.selfExecutable, [subcommand, file.path, directory.path, mode])
        guard status == 0 else { throw BenchFailure("\(subcommand) \(mode) exited \(status)") }
        return try JSONDecoder().decode(Report.self, from: output)
    }
}
