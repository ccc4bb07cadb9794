import Foundation
import QuireClient

/// The syncing device of the first-sync benchmark, run as a child process so its peak memory is its
/// own: `quire-bench __sync-child URL TOKEN HEXKEY DIR PAGE_LIMIT [serial]`.
///
/// Without `serial` the engine reads ahead (the next page fetched and opened on every core while
/// the current one is stored); `serial`: each page fetched, opened on one core and stored before
/// the next is asked for (the engine's default).
///
/// Opens a fresh device database in DIR (full durability), runs one sync over URLSession, and
/// prints one JSON line: ``Report``. Exits 1 (with a message on standard error) when it cannot.
enum SyncChild {
    static let subcommand = "__sync-child"

    struct Report: Codable {
        /// From creating the database to the end of the sync, inside the child.
        var seconds: Double
        var received: Int
        var failure: String?
        /// `VmHWM` of `/proc/self/status` just before exiting, in KiB; nil where there is none.
        var peakKiB: Int?
        /// The child's CPU time (user and system, every thread) just before exiting, in seconds:
        /// steadier than the wall time on a shared machine.
        var cpuSeconds: Double?
    }

    static func main(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 5 || (arguments.count == 6 && arguments[5] == "serial"),
            let url = URL(string: arguments[0]),
            let codec = BenchCodec(hexKey: arguments[2]), let pageLimit = Int(arguments[4])
        else {
            FileHandle.standardError.write(Data("usage: \(subcommand) URL TOKEN HEXKEY DIR PAGE_LIMIT [serial]\n".utf8))
            return 64
        }
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let database = try NotesDatabase(
                fileURL: URL(fileURLWithPath: arguments[3]).appendingPathComponent("notes.sqlite"))
            let api = NotesAPIClient(
                transport: LiveTransport.make(baseURL: url),
                tokens: StaticTokenProvider(token: arguments[1]))
            let engine = NotesSyncEngine(
                records: database, api: api, codec: codec, account: AccountID("bench"),
                pageLimit: pageLimit, readAhead: arguments.count == 5)
            let report = await engine.syncOnce()
            let elapsed = clock.now - start
            let result = Report(
                seconds: elapsed.seconds, received: report.received,
                failure: report.failure.map { "\($0.message)" }, peakKiB: peakMemoryKiB(),
                cpuSeconds: ProcessCPU.seconds())
            FileHandle.standardOutput.write(try JSONEncoder().encode(result) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
            return 1
        }
    }

    /// The process's peak resident set (`VmHWM`) in KiB, from `/proc/self/status` (Linux only).
    static func peakMemoryKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}
