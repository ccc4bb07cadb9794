import Foundation
import QuireServer

/// The flood benchmark's server, in a process of its own so its resident memory is the server's
/// alone: `quire-bench __flood-server DIR ACCOUNTS`.
///
/// The shipped host (``MicroHTTPLimits`` defaults) except: up to 12,000 connections, and no
/// per-address cap (the benchmark holds 1,000 connections from one address on purpose). Creates
/// ACCOUNTS accounts, prints one JSON line (``Ready``), then serves until killed.
enum FloodServerChild {
    static let subcommand = "__flood-server"

    struct Ready: Codable {
        var port: UInt16
        var tokens: [String]
        var maxConnections: Int
    }

    static func main(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let accounts = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: \(subcommand) DIR ACCOUNTS\n".utf8))
            return 64
        }
        do {
            let core = try NotesServer.sqlite(
                path: URL(fileURLWithPath: arguments[0]).appendingPathComponent("server.sqlite").path,
                log: { _ in })
            let host = try MicroHTTPServer(
                core: core, host: "127.0.0.1", port: 0,
                limits: MicroHTTPLimits(maxConnections: 12_000, connectionsPerAddress: 0))
            var tokens: [String] = []
            for _ in 0..<accounts { tokens.append(try await BenchAccount.make(server: core).token) }
            let ready = Ready(port: host.port, tokens: tokens, maxConnections: host.limits.maxConnections)
            FileHandle.standardOutput.write(try JSONEncoder().encode(ready) + Data("\n".utf8))
            while true { try await Task.sleep(for: .seconds(3600)) }
        } catch {
            FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
            return 1
        }
    }

    /// The resident set (`VmRSS`) of process `pid` in KiB, from `/proc` (Linux only).
    static func residentKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }
}
