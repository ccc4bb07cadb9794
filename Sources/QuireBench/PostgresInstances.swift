import Foundation
import QuireServer
import QuireTestSupport

/// Two `NotesServer` instances on one fresh database of the durable throwaway PostgreSQL cluster
/// (``PostgresTestCluster/durable()``), each behind its own libmicrohttpd host on loopback, and a
/// real haproxy before them with docs/deploying.md's configuration (round robin over both) plus a
/// frontend to the first alone. `accounts` accounts, whose tokens both instances take.
final class PostgresInstances: Sendable {
    let first: MicroHTTPServer
    let second: MicroHTTPServer
    let balancer: HAProxyProcess
    let tokens: [String]

    /// The balancer's frontend that reaches the first instance only.
    var oneViaBalancer: URL { balancer.url(of: "one_instance")! }

    /// Starts the cluster (on first use in this process), the instances and haproxy, in that
    /// order. Throws what fails: PostgreSQL or haproxy missing (the message says to run
    /// `bash scripts/setup.sh`), a port, the database.
    init(directory: URL, accounts: Int) async throws {
        let connection = try await ProcessRunner.offPool {
            let cluster = try PostgresTestCluster.durable()
            return cluster.connectionString(database: try cluster.createDatabase())
        }
        // Internal errors go to standard error: a failed request in the table must have a reason.
        let cores = [
            NotesServer(
                storage: try await PostgresServerStorage.connect(connection), log: { progress("quire1: \($0)") }),
            NotesServer(
                storage: try await PostgresServerStorage.connect(connection), log: { progress("quire2: \($0)") }),
        ]
        // No cap per address, as docs/deploying.md runs instances behind a balancer: every
        // connection comes from one address here (wrk's or haproxy's), and the connections of a
        // finished wrk run still count until their suspended requests answer, so the next run's
        // 64 crossed the default cap of 128 and were closed at accept.
        let limits = MicroHTTPLimits(connectionsPerAddress: 0)
        first = try MicroHTTPServer(core: cores[0], host: "127.0.0.1", port: 0, limits: limits)
        second = try MicroHTTPServer(core: cores[1], host: "127.0.0.1", port: 0, limits: limits)
        var tokens: [String] = []
        for _ in 0..<accounts { tokens.append(try await BenchAccount.make(server: cores[0]).token) }
        self.tokens = tokens
        let one = HAProxyConfiguration.Instance(name: "quire1", port: first.baseURL.port ?? 0)
        let two = HAProxyConfiguration.Instance(name: "quire2", port: second.baseURL.port ?? 0)
        let configuration = HAProxyConfiguration(
            port: try LoopbackPort.free(), statsPort: try LoopbackPort.free(), instances: [one, two],
            pinned: [.init(name: "one_instance", port: try LoopbackPort.free(), instance: one)],
            log: "log stdout format raw local0 notice")
        do {
            balancer = try await HAProxyProcess.start(configuration, in: directory)
        } catch {
            for host in [first, second] {
                await host.stop()
                await host.core.shutDown()
            }
            throw error
        }
    }

    func stop() async {
        await balancer.stop()
        for host in [first, second] {
            await host.stop()
            await host.core.shutDown()
        }
    }
}
