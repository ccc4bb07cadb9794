import Foundation
import QuireTestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Two real `quire-server` processes on one fresh PostgreSQL database (the test cluster), behind
/// a real haproxy on loopback: the set-up of ``BalancedInstancesTests`` and of the recipe in
/// docs/deploying.md ("Several instances behind a load balancer").
///
/// Devices reach the instances through haproxy only: the balanced frontend (round robin over
/// both, as a deployment runs it), or a frontend pinned to one instance, so a test knows which
/// instance a device talks to. The pinned `short_wait` frontend reaches the second instance with
/// a server timeout of `shortTimeout` seconds, shorter than a device's long-poll (25 s).
/// Use it through ``with(shortTimeout:_:)``, which stops everything after the test's body.
struct BalancedInstances {
    let root: TemporaryDirectory
    let database: String
    let first: ServerProcess
    let second: ServerProcess
    let balancer: HAProxyProcess

    /// How the instances run behind the balancer (docs/deploying.md): every connection comes
    /// from haproxy's address, so no cap per address, and the client's address is the one
    /// haproxy appends to `X-Forwarded-For`. Polls re-check their feed only every minute, so a
    /// wake within seconds came through LISTEN/NOTIFY from the other instance.
    static let instanceArguments = [
        "--connections-per-address", "0", "--trusted-proxy", "127.0.0.1", "--live-update-recheck", "60",
    ]

    /// The names of the frontends pinned to one instance.
    static let toFirst = "to_quire1"
    static let toSecond = "to_quire2"
    static let shortWait = "short_wait"

    /// Starts the instances and the balancer, runs `body`, then stops them and removes the
    /// directory, whether `body` threw or not; rethrows what `body` threw.
    static func with(shortTimeout: Int = 3, _ body: (BalancedInstances) async throws -> Void) async throws {
        let setup = try await BalancedInstances(shortTimeout: shortTimeout)
        do {
            try await body(setup)
        } catch {
            print("haproxy's log:\n\(setup.balancer.log)")
            await setup.tearDown()
            throw error
        }
        await setup.tearDown()
    }

    private init(shortTimeout: Int) async throws {
        root = try TemporaryDirectory(prefix: "quire-balanced")
        let connection = try await PostgresTestCluster.freshDatabase()
        guard let name = connection.split(separator: "=").last.map(String.init) else {
            throw PostgresTestClusterError("no database name in \(connection)")
        }
        database = try PostgresTestCluster.shared().uri(database: name)
        let blobs = ["--blobs", root.path("blobs").path]
        first = try await ServerProcess.start(database: database, extraArguments: Self.instanceArguments + blobs)
        second = try await ServerProcess.start(database: database, extraArguments: Self.instanceArguments + blobs)
        let one = HAProxyConfiguration.Instance(name: "quire1", port: first.url.port ?? 0)
        let two = HAProxyConfiguration.Instance(name: "quire2", port: second.url.port ?? 0)
        let configuration = HAProxyConfiguration(
            port: try LoopbackPort.free(), statsPort: try LoopbackPort.free(), instances: [one, two],
            pinned: [
                .init(name: Self.toFirst, port: try LoopbackPort.free(), instance: one),
                .init(name: Self.toSecond, port: try LoopbackPort.free(), instance: two),
                .init(
                    name: Self.shortWait, port: try LoopbackPort.free(), instance: two,
                    serverTimeoutSeconds: shortTimeout),
            ])
        do {
            balancer = try await HAProxyProcess.start(configuration, in: root.url)
        } catch {
            first.terminate()
            second.terminate()
            root.remove()
            throw error
        }
    }

    /// A device that registers `alice` (password "correct horse") through `frontend`: a pinned
    /// frontend's name, or nil for the balanced one.
    func registeredDevice(_ name: String, through frontend: String?) async throws -> CLIDevice {
        try await device(name, "register", through: frontend)
    }

    /// A device that signs in to `alice` through `frontend`.
    func signedInDevice(_ name: String, through frontend: String?) async throws -> CLIDevice {
        try await device(name, "login", through: frontend)
    }

    private func device(_ name: String, _ command: String, through frontend: String?) async throws -> CLIDevice {
        let device = CLIDevice(root, name)
        let url =
            try frontend.map { name in
                guard let url = balancer.url(of: name) else { throw HAProxyError("no frontend \(name)") }
                return url
            } ?? balancer.url
        try await device.ok(
            [command, url.absoluteString, "alice", "--password-stdin", "--device-name", name], stdin: "correct horse\n")
        return device
    }

    /// The note writes (`PUT /v1/notes/{id}` and `POST /v1/notes/batch`, any answer) that
    /// `instance` has served, from its own `/metrics`.
    static func noteWrites(on instance: ServerProcess) async throws -> Int {
        let metrics = try await metrics(of: instance)
        let puts = metrics.all("quire_http_requests_total", ["route": "/v1/notes/{id}", "method": "PUT"])
        let batches = metrics.all("quire_http_requests_total", ["route": "/v1/notes/batch", "method": "POST"])
        return Int((puts + batches).map(\.value).reduce(0, +))
    }

    /// The requests of devices that `instance` has served (every `/v1/` route but the health
    /// check the balancer sends), from its own `/metrics`.
    static func deviceRequests(on instance: ServerProcess) async throws -> Int {
        let samples = try await metrics(of: instance).all("quire_http_requests_total").filter { sample in
            let route = sample.labels["route"] ?? ""
            return route.hasPrefix("/v1/") && route != "/v1/health"
        }
        return Int(samples.map(\.value).reduce(0, +))
    }

    /// The long-polls `instance` holds now.
    static func heldPolls(on instance: ServerProcess) async throws -> Int {
        Int(try await metrics(of: instance).value("quire_longpoll_waiters") ?? 0)
    }

    /// `instance`'s `/metrics`, asked directly (loopback, not through the balancer).
    static func metrics(of instance: ServerProcess) async throws -> Exposition {
        let (data, response) = try await URLSession(configuration: .ephemeral).data(
            from: instance.url.appendingPathComponent("metrics"))
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw HAProxyError("GET /metrics of \(instance.url) answered \(response)")
        }
        return try Exposition(parsing: String(decoding: data, as: UTF8.self))
    }

    private func tearDown() async {
        await balancer.stop()
        first.terminate()
        second.terminate()
        root.remove()
    }
}
