import Foundation
import QuireLock
import QuirePostgres
import QuireSpawn

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests: one per test process, started on first use (initdb
/// into a temporary directory, then pg_ctl on a free loopback port with its unix socket in that
/// directory) and stopped when the process exits. Each test takes a database of its own.
///
/// As root the server runs as the `postgres` user (PostgreSQL refuses to run as root); otherwise
/// as the current user. Durability is off (`fsync=off`): the cluster is gone after the run.
/// ``durable()`` starts a second kind, with PostgreSQL's durable defaults (`fsync`,
/// `synchronous_commit`), for benchmarks that compare its commits with SQLite's.
/// A watcher process stops the cluster and removes its directory if the test process dies
/// without running its exit handlers.
public final class PostgresTestCluster: Sendable {
    public let directory: String
    public let port: Int
    private let binaries: String
    private let runAs: [String]
    private let admin: Locked<PostgresConnection?>

    /// The process's cluster, started on first call. Throws ``PostgresTestClusterError`` when
    /// PostgreSQL's programs are missing (the message says to run `bash scripts/setup.sh`) or
    /// the cluster does not start.
    public static func shared() throws -> PostgresTestCluster {
        try cluster(in: started, durable: false)
    }

    private static let started = Locked<PostgresTestCluster?>(nil)

    /// The process's durable cluster (every commit flushed to disk, as PostgreSQL ships), started
    /// on first call, apart from ``shared()``'s. Throws as ``shared()`` does.
    public static func durable() throws -> PostgresTestCluster {
        try cluster(in: startedDurable, durable: true)
    }

    private static let startedDurable = Locked<PostgresTestCluster?>(nil)

    /// The cluster `slot` holds, started into it first if it holds none.
    private static func cluster(in slot: Locked<PostgresTestCluster?>, durable: Bool) throws -> PostgresTestCluster {
        try slot.withLock { started in
            if let cluster = started { return cluster }
            let cluster = try PostgresTestCluster(durable: durable)
            started = cluster
            return cluster
        }
    }

    /// Connection parameters of a new, empty database in the process's cluster (started if
    /// needed), made on a thread of its own: the first call waits for the cluster to start.
    public static func freshDatabase() async throws -> String {
        try await onOwnThread {
            let cluster = try shared()
            return cluster.connectionString(database: try cluster.createDatabase())
        }
    }

    /// libpq keyword/value parameters for database `name` over the unix socket.
    public func connectionString(database name: String) -> String {
        "host=\(directory) port=\(port) user=postgres dbname=\(name)"
    }

    /// A libpq URI for database `name` over TCP on 127.0.0.1, as `quire-server --db` takes it.
    public func uri(database name: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(name)"
    }

    /// Creates an empty database with a fresh name and returns that name.
    public func createDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try admin.withLock { admin in
            if admin == nil || admin?.isHealthy == false {
                admin = try PostgresConnection(connectionString(database: "postgres"))
            }
            try admin?.execute("CREATE DATABASE \(name)")
        }
        return name
    }

    // MARK: - Starting and stopping

    private init(durable: Bool) throws {
        let binaries = try Self.binaries(under: "/usr/lib/postgresql")
        self.binaries = binaries
        let directory = "/tmp/quire-pg-\(UUID().uuidString.prefix(8))"
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            runAs = ["/usr/sbin/runuser", "-u", "postgres", "--"]
            try FileManager.default.setAttributes(
                [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory)
        } else {
            runAs = []
        }
        admin = Locked(nil)
        try Self.run(
            runAs + [
                "\(binaries)/initdb", "-D", "\(directory)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
                "--no-locale", "--no-sync",
            ], what: "initdb")
        var lastError: (any Error)?
        var chosen: Int?
        for _ in 0..<3 {
            let candidate = try LoopbackPort.free()
            // Every server a test makes keeps a pool and a LISTEN connection until the test
            // process ends: 300 ran out once live updates crossed instances.
            do {
                try Self.run(
                    runAs + [
                        "\(binaries)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-o",
                        "-p \(candidate) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=1000"
                            + (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"),
                        "start",
                    ], what: "pg_ctl start")
                chosen = candidate
                break
            } catch {
                lastError = error
            }
        }
        guard let chosen else {
            let log = (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? ""
            throw PostgresTestClusterError("PostgreSQL did not start: \(lastError.map { "\($0)" } ?? "") \(log)")
        }
        port = chosen
        let stop = runAs + ["\(binaries)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"]
        Self.stopAtExit(stop, directory: directory)
    }

    /// `<root>/<newest version>/bin` holding initdb and pg_ctl (Debian's layout, `root`
    /// `/usr/lib/postgresql`). Throws, saying to run `bash scripts/setup.sh`, when there is none.
    public static func binaries(under root: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let bin = "\(root)/\(version)/bin"
            if FileManager.default.isExecutableFile(atPath: "\(bin)/initdb"),
                FileManager.default.isExecutableFile(atPath: "\(bin)/pg_ctl")
            {
                return bin
            }
        }
        throw PostgresTestClusterError(
            "PostgreSQL's server programs (initdb, pg_ctl) are not installed under \(root): "
                + "run `bash scripts/setup.sh` (it installs postgresql-15 and libpq-dev)")
    }

    private static func run(_ arguments: [String], what: String) throws {
        let result = try ProcessRunner.runBlocking(
            URL(fileURLWithPath: arguments[0]), Array(arguments.dropFirst()), timeout: 60)
        guard result.exitCode == 0 else {
            throw PostgresTestClusterError("\(what) exited with \(result.exitCode): \(result.stderr)\(result.stdout)")
        }
    }

    /// Stops the cluster and removes its directory when this process exits, and (through a
    /// watcher that polls this process) when it dies without exiting normally.
    private static func stopAtExit(_ stop: [String], directory: String) {
        let quoted = stop.map { "'\($0)'" }.joined(separator: " ")
        let script =
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(quoted) >/dev/null 2>&1; rm -rf '\(directory)'"
        // Kept for the life of the process: a ChildProcess that goes away kills its child.
        let watcher = try? ChildProcess(
            ["/bin/sh", "-c", script], stdout: .null, stderr: .null, newProcessGroup: true)
        let first = clusterToStop.withLock { clusters in
            clusters.append((stop, directory, watcher))
            return clusters.count == 1
        }
        if first { atexit { stopClusterAtExit() } }
    }
}

private let clusterToStop = Locked<[(stop: [String], directory: String, watcher: ChildProcess?)]>([])

private func stopClusterAtExit() {
    for (stop, directory, _) in clusterToStop.withLock({ $0 }) {
        if let child = try? ChildProcess(stop, stdout: .null, stderr: .null) { _ = child.wait() }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The test cluster is missing or did not start; the message says what to do.
public struct PostgresTestClusterError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
