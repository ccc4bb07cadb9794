import CMicroHTTPD
import CMicroHTTPDErrors  // libmicrohttpd's own HTML error pages become JSON (linked for that alone)
import Foundation

/// Serves a ``NotesServer`` over HTTP, or HTTPS when given ``TLSCredentials``, with libmicrohttpd.
///
/// libmicrohttpd runs as an event loop (epoll) on a small thread pool (``MicroHTTPLimits``):
/// a connection costs a socket and a memory pool, not a thread. When a request has arrived whole
/// its connection is suspended while the core's task computes the answer, then resumed to send
/// it, so a long-poll holds no thread. A ``ConnectionWatch`` closes connections whose request
/// has not arrived within its deadline (slow or silent clients) and ends a suspended request
/// whose client hung up. Connections are capped in all and per client address. Bodies over
/// `WireRoutes.maxBodyBytes` get 413 without being kept. With TLS, libmicrohttpd runs GnuTLS
/// inside the same event loop (TLS 1.2 and 1.3 only); suspending, resuming, deadlines and hang-up
/// watching work on the TCP socket beneath and are the same.
///
/// Thread safety: the only mutable state is `daemon`, guarded by `lock`; libmicrohttpd's own calls
/// are thread-safe, and the callbacks' shared state guards itself. That is why the class may be
/// `@unchecked Sendable`.
public final class MicroHTTPServer: @unchecked Sendable {
    public let core: NotesServer
    public let host: String
    /// The port actually bound (the system's pick when asked for 0).
    public let port: UInt16
    /// The limits in force; `maxConnections` after clamping to the open-files limit.
    public let limits: MicroHTTPLimits
    /// Whether it serves HTTPS.
    public let usesTLS: Bool

    private let lock = NSLock()
    private var daemon: OpaquePointer?
    private let context: Unmanaged<MicroHTTPHostContext>
    /// The PEM strings handed to libmicrohttpd, kept until the daemon is gone.
    private let tlsStrings: TLSOptionStrings?

    /// Starts listening on `host:port` (IPv4 or IPv6 literal, or `localhost`); port 0 picks a free one.
    /// With `tls`, serves HTTPS only.
    ///
    /// Raises the process's open-files soft limit to its hard limit, and clamps
    /// `limits.maxConnections` to what fits under it. Throws ``MicroHTTPServerError`` when the
    /// host is not an address, the port cannot be bound (in use, or privileged), or TLS is asked
    /// of a libmicrohttpd built without it.
    public init(
        core: NotesServer, host: String = "127.0.0.1", port: UInt16 = 0,
        limits: MicroHTTPLimits = MicroHTTPLimits(), tls: TLSCredentials? = nil
    ) throws {
        self.core = core
        self.host = host
        var limits = limits
        limits.maxConnections = limits.effectiveConnectionLimit()
        self.limits = limits
        self.usesTLS = tls != nil
        let address = try SocketAddress(host: host, port: port)
        if tls != nil, quire_mhd_supports_tls() == 0 {
            throw MicroHTTPServerError(
                "this libmicrohttpd was built without TLS: install Debian's libmicrohttpd12 (built with "
                    + "GnuTLS), or serve plain HTTP behind a TLS reverse proxy (docs/deploying.md)")
        }
        let tlsStrings = tls.map(TLSOptionStrings.init)
        let watch = ConnectionWatch(requestDeadline: .seconds(max(1, limits.requestDeadlineSeconds)))
        let context = Unmanaged.passRetained(MicroHTTPHostContext(core: core, watch: watch, usesTLS: tls != nil))
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if tls != nil { flags |= MHD_USE_TLS.rawValue }

        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options: [CVarArg] = tlsStrings?.options ?? []
            options += [
                MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(sockaddr),
                MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(max(1, limits.threads)),
                MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(limits.maxConnections),
                MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(max(0, limits.connectionsPerAddress)),
                MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(max(1, limits.idleTimeoutSeconds)),
                MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, MicroHTTPLimits.connectionMemory,
                MHD_OPTION.NOTIFY_COMPLETED.rawValue,
                OpaquePointer(
                    unsafeBitCast(
                        quireRequestCompleted as MHD_RequestCompletedCallback,
                        to: UnsafeRawPointer.self)),
                OpaquePointer(context.toOpaque()),
                MHD_OPTION.NOTIFY_CONNECTION.rawValue,
                OpaquePointer(
                    unsafeBitCast(
                        quireConnectionNotified as MHD_NotifyConnectionCallback,
                        to: UnsafeRawPointer.self)),
                OpaquePointer(context.toOpaque()),
                MHD_OPTION.UNESCAPE_CALLBACK.rawValue,
                OpaquePointer(
                    unsafeBitCast(
                        quireUnescape
                            as @convention(c) (
                                UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?
                            ) -> Int,
                        to: UnsafeRawPointer.self)),
                OpaquePointer(context.toOpaque()),
                MHD_OPTION.END.rawValue,
            ]
            return withVaList(options) { arguments in
                MHD_start_daemon_va(
                    flags, port, nil, nil, quireAccessHandler, context.toOpaque(), arguments)
            }
        }
        guard let started else {
            let reason = errno == 0 ? "" : " (\(String(cString: strerror(errno))))"
            watch.stop()
            context.release()
            throw MicroHTTPServerError(
                "cannot listen on \(host):\(port)\(reason); the port may be in use: "
                    + "stop the other server or choose another port")
        }
        self.daemon = started
        self.context = context
        self.tlsStrings = tlsStrings
        self.port = quire_mhd_bind_port(started)
    }

    deinit {
        if let daemon {
            let host = context.takeUnretainedValue()
            host.resumeEverySuspendedConnection()
            MHD_stop_daemon(daemon)
            host.watch.stop()
            context.release()
        }
    }

    /// The base URL clients use: `http://127.0.0.1:8080`, or `https://…` with TLS.
    public var baseURL: URL {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(usesTLS ? "https" : "http")://\(hostPart):\(port)")!
    }

    /// Connections open now (tracked by the host's watch), for tests and the benchmark.
    public var openConnections: Int {
        context.takeUnretainedValue().watch.openCount
    }

    /// Stops cleanly: stops accepting, ends every long-poll (each answers its page), waits for the
    /// requests in flight, answers any request still suspended with 503 (a suspended connection
    /// would abort MHD_stop_daemon), stops the daemon, then shuts the core's storage. Calling it
    /// again does nothing. Safe to call from any task; the blocking stop runs on a thread of its own.
    public func stop() async {
        let taken: OpaquePointer? = lock.withLock {
            defer { daemon = nil }
            return daemon
        }
        guard let daemon = taken else { return }
        let listener = MHD_quiesce_daemon(daemon)
        await core.wakeAllWaiters()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // MHD_stop_daemon joins the event-loop threads: never block a Swift concurrency thread.
            let stopping = DaemonHandle(daemon)
            let host = context.takeUnretainedValue()
            let thread = Thread {
                // Let woken long-polls and other requests in flight finish sending their answers.
                _ = host.inFlight.wait(timeout: .now() + .seconds(5))
                host.resumeEverySuspendedConnection()
                MHD_stop_daemon(stopping.pointer)
                host.watch.stop()
                continuation.resume()
            }
            thread.start()
        }
        if listener >= 0 { close(listener) }
        context.release()
        await core.shutDown()
    }
}

/// A daemon pointer handed to the thread that stops it.
///
/// `@unchecked Sendable`: after `stop()` took it out of the server, only that one thread uses it.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}

/// The certificate, key and cipher choice as the C strings libmicrohttpd's options point to: it
/// reads them while the daemon starts, and they stay allocated (the key's bytes zeroed before
/// they are freed) until the server is gone.
///
/// `@unchecked Sendable`: the pointers are written once, at init, and freed only in deinit.
private final class TLSOptionStrings: @unchecked Sendable {
    /// TLS 1.2 and 1.3 only, GnuTLS's usual ("NORMAL") ciphers otherwise: what iOS requires, and
    /// nothing older.
    static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    private let certificate: UnsafeMutablePointer<CChar>
    private let key: UnsafeMutablePointer<CChar>
    private let priorities: UnsafeMutablePointer<CChar>

    init(_ credentials: TLSCredentials) {
        certificate = strdup(credentials.certificatePEM)!
        key = strdup(credentials.keyPEM)!
        priorities = strdup(Self.priorities)!
    }

    deinit {
        memset(key, 0, strlen(key))
        free(certificate)
        free(key)
        free(priorities)
    }

    var options: [CVarArg] {
        [
            MHD_OPTION.HTTPS_MEM_CERT.rawValue, UnsafePointer(certificate),
            MHD_OPTION.HTTPS_MEM_KEY.rawValue, UnsafePointer(key),
            MHD_OPTION.HTTPS_PRIORITIES.rawValue, UnsafePointer(priorities),
        ]
    }
}

/// The host could not start.
public struct MicroHTTPServerError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// An IPv4 or IPv6 socket address to bind.
private struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws {
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { raw in
                withUnsafeBytes(of: v4) { raw.copyMemory(from: $0) }
            }
            isIPv6 = false
            return
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &storage) { raw in
                withUnsafeBytes(of: v6) { raw.copyMemory(from: $0) }
            }
            isIPv6 = true
            return
        }
        throw MicroHTTPServerError(
            "'\(host)' is not an IP address; use one such as 127.0.0.1, 0.0.0.0 or ::1")
    }

    func withSockaddr<T>(_ body: (UnsafeMutableRawPointer) -> T) -> T {
        var copy = storage
        return withUnsafeMutableBytes(of: &copy) { body($0.baseAddress!) }
    }
}
