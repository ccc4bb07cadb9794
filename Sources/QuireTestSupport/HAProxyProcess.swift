import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real haproxy (Debian's `haproxy` package) in the foreground on loopback, run unprivileged
/// from a configuration file written into a test's directory; what it logs goes to a file
/// beside it.
public final class HAProxyProcess: Sendable {
    public let configuration: HAProxyConfiguration
    public let configurationFile: URL
    private let process: BackgroundProcess

    /// Where Debian installs it.
    public static let executable = URL(fileURLWithPath: "/usr/sbin/haproxy")

    /// Writes `configuration` to `directory/haproxy.cfg`, starts haproxy on it and waits (up to
    /// `timeout` seconds) until its stats page answers and its health checks have every
    /// instance of the balanced backend up.
    ///
    /// Throws ``HAProxyError`` when haproxy is not installed (the message says to run
    /// `bash scripts/setup.sh`), when it exits at start (with what it printed: a bad
    /// configuration, a port in use), or when the instances are not up in time.
    public static func start(
        _ configuration: HAProxyConfiguration, in directory: URL, timeout: TimeInterval = 20
    ) async throws -> HAProxyProcess {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw HAProxyError(
                "haproxy is not installed at \(executable.path): run `bash scripts/setup.sh` (it installs "
                    + "Debian's haproxy package)")
        }
        let file = directory.appendingPathComponent("haproxy.cfg")
        try configuration.text.write(to: file, atomically: true, encoding: .utf8)
        let process = try BackgroundProcess.start(
            executable, ["-db", "-f", file.path], outputFile: directory.appendingPathComponent("haproxy.log"))
        let proxy = HAProxyProcess(configuration: configuration, configurationFile: file, process: process)
        let ready = await eventually(timeout: timeout) {
            guard process.isRunning else { return false }
            guard let stats = try? await proxy.stats() else { return false }
            return configuration.instances.allSatisfy { stats.isUp("quire_instances", $0.name) }
        }
        guard ready else {
            let log = process.output
            await process.kill9()
            throw HAProxyError(
                "haproxy did not start with every instance up within \(timeout) s; it printed:\n\(log)")
        }
        return proxy
    }

    private init(configuration: HAProxyConfiguration, configurationFile: URL, process: BackgroundProcess) {
        self.configuration = configuration
        self.configurationFile = configurationFile
        self.process = process
    }

    /// The balanced frontend, as devices are given it.
    public var url: URL { URL(string: "http://127.0.0.1:\(configuration.port)")! }

    /// The pinned frontend named `name`.
    public func url(of name: String) -> URL? {
        configuration.pinned.first { $0.name == name }.map { URL(string: "http://127.0.0.1:\($0.port)")! }
    }

    /// What haproxy logged so far (one line a request, `option httplog`, and its alerts).
    public var log: String { process.output }

    /// Reads the stats page now. Throws when haproxy does not answer it.
    public func stats() async throws -> HAProxyStats {
        let page = URL(string: "http://127.0.0.1:\(configuration.statsPort)/stats;csv")!
        let (data, response) = try await URLSession(configuration: .ephemeral).data(from: page)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw HAProxyError("haproxy's stats page answered \(response)")
        }
        return try HAProxyStats(csv: String(decoding: data, as: UTF8.self))
    }

    /// Stops haproxy (SIGINT, its immediate stop) and waits for it to exit.
    public func stop() async {
        await process.interrupt()
    }
}

/// haproxy is missing, did not start, or answered something unexpected; the message says what
/// to do or what it printed.
public struct HAProxyError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
