import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on `127.0.0.1` in front of a local server that loses requests and replies, as a
/// flaky network does: the faults a phone meets, between real processes.
///
/// Each connection is relayed byte for byte. Without parsing HTTP it still sees exchanges: the
/// first bytes a client sends after a reply (or on a fresh connection) start one, and its fate is
/// drawn then from a seeded generator:
/// - pass: the request goes up and the reply comes back;
/// - lost request: the connection is closed before anything of the request is forwarded;
/// - lost reply: the request is forwarded, and once the server starts to answer (so it has taken
///   the whole request and acted on it) both sides are closed and the answer is thrown away.
///
/// A client that pipelines requests would see one fate for several; URLSession (libcurl) does not.
/// The proxy also reads each request's `Content-Length`, to count requests that arrived without
/// all of their body by the time their connection ended (a client that resent headers only).
/// The proxy only ever connects to `127.0.0.1:upstreamPort`, and it stops by itself after
/// `lifetime` seconds, or at ``stop()``, closing every connection it holds (its threads hold it
/// until then).
public final class LossyLoopbackProxy: @unchecked Sendable {
    // Everything mutable is guarded by `lock`; the listening socket is opened in `init` and only
    // closed by the accept thread once `stopped` is set (or the lifetime ends).
    public enum Fate: Sendable, Equatable {
        case pass, lostRequest, lostReply
    }

    /// What the proxy did so far.
    public struct Counts: Sendable, CustomStringConvertible {
        public var connections = 0
        /// Connections closed at once because nothing listened upstream (the server was down).
        public var upstreamDown = 0
        public var exchanges = 0
        public var lostRequests = 0
        public var lostReplies = 0
        /// Requests passed through whose connection ended before all the body their
        /// `Content-Length` announced had come from the client.
        public var requestsWithoutTheirBody = 0
        /// The longest such request waited for its body, in seconds.
        public var longestWaitForABody: TimeInterval = 0

        public var description: String {
            "\(connections) connections (\(upstreamDown) with the server down), \(exchanges) exchanges, "
                + "\(lostRequests) lost requests, \(lostReplies) lost replies, "
                + "\(requestsWithoutTheirBody) requests that never sent all their body (longest wait "
                + String(format: "%.1f s)", longestWaitForABody)
        }
    }

    /// The port clients connect to; it stays the same for the proxy's life.
    public let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var upstream: UInt16
    private var lostRequestChance = 0.0
    private var lostReplyChance = 0.0
    private var random: SeededRandom
    private var stopped = false
    private var tally = Counts()
    private let deadline: Date

    /// Listens on an ephemeral port of `127.0.0.1` and forwards to `127.0.0.1:upstreamPort`; passes
    /// everything through until ``setFaults(lostRequest:lostReply:)``. Throws when the socket cannot
    /// be opened.
    public init(upstreamPort: UInt16, seed: UInt64, lifetime: TimeInterval = 300) throws {
        upstream = upstreamPort
        random = SeededRandom(seed: seed)
        deadline = Date().addingTimeInterval(lifetime)
        let socket = try Self.listeningSocket()
        listener = socket.descriptor
        port = socket.port
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// `http://127.0.0.1:port`, for clients.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Where the proxy forwards new connections (a server restarted on another port, say).
    public var upstreamPort: UInt16 {
        get { lock.withLock { upstream } }
        set { lock.withLock { upstream = newValue } }
    }

    /// The chance of each fate for every exchange from now on; 0 and 0 pass everything through.
    public func setFaults(lostRequest: Double, lostReply: Double) {
        lock.withLock {
            lostRequestChance = lostRequest
            lostReplyChance = lostReply
        }
    }

    public var counts: Counts { lock.withLock { tally } }

    /// Stops accepting and closes every connection within a tenth of a second. Does not wait.
    public func stop() {
        lock.withLock { stopped = true }
    }

    // MARK: - Threads

    private var isStopped: Bool {
        lock.withLock { stopped || Date() > deadline }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            Self.keepSignalsQuiet(client)
            let target = lock.withLock {
                tally.connections += 1
                return upstream
            }
            guard let server = Self.connectLoopback(target) else {
                lock.withLock { tally.upstreamDown += 1 }
                close(client)
                continue
            }
            Thread.detachNewThread { [self] in relay(client: client, server: server) }
        }
    }

    /// Relays one connection until either side closes, the proxy stops, or a fault ends it.
    private func relay(client: Int32, server: Int32) {
        var exchange: Exchange?  // nil: waiting for the client's next request
        defer {
            close(client)
            close(server)
            if let exchange, exchange.fate == .pass, exchange.isMissingBody {
                let waited = Date().timeIntervalSince(exchange.lastRequestBytes)
                lock.withLock {
                    tally.requestsWithoutTheirBody += 1
                    tally.longestWaitForABody = max(tally.longestWaitForABody, waited)
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isStopped {
            var sockets = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&sockets, 2, 100) > 0 else { continue }
            let ready = Int16(POLLIN | POLLHUP | POLLERR)
            if sockets[0].revents & ready != 0 {
                let count = read(client, &buffer, buffer.count)
                guard count > 0 else { return }
                if exchange == nil { exchange = Exchange(fate: drawFate()) }
                if exchange?.fate == .lostRequest { return }
                exchange?.forwarded(buffer[0..<count])
                guard Self.writeAll(server, buffer, count) else { return }
            }
            if sockets[1].revents & ready != 0 {
                let count = read(server, &buffer, buffer.count)
                guard count > 0, exchange?.fate != .lostReply else { return }
                guard Self.writeAll(client, buffer, count) else { return }
                exchange = nil
            }
        }
    }

    /// One request as it goes up: its fate, and whether all of its announced body came.
    private struct Exchange {
        let fate: Fate
        private var head: [UInt8] = []
        private var bodyExpected: Int?
        private var bodySeen = 0
        private(set) var lastRequestBytes = Date()

        init(fate: Fate) { self.fate = fate }

        var isMissingBody: Bool { bodySeen < (bodyExpected ?? 0) }

        mutating func forwarded(_ bytes: ArraySlice<UInt8>) {
            lastRequestBytes = Date()
            guard bodyExpected == nil else {
                bodySeen += bytes.count
                return
            }
            head += bytes
            guard let end = Self.endOfHead(head) else { return }
            let text = String(decoding: head[..<end], as: UTF8.self).lowercased()
            let length = text.components(separatedBy: "\r\n").lazy
                .filter { $0.hasPrefix("content-length:") }
                .compactMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
                .first
            bodyExpected = length ?? 0
            bodySeen = head.count - end - 4
            head = []
        }

        /// Where the blank line that ends the header starts.
        private static func endOfHead(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4)
            where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }

    private func drawFate() -> Fate {
        lock.withLock {
            tally.exchanges += 1
            let roll = Double(random.next() >> 11) / Double(1 << 53)
            if roll < lostRequestChance {
                tally.lostRequests += 1
                return .lostRequest
            }
            if roll < lostRequestChance + lostReplyChance {
                tally.lostReplies += 1
                return .lostReply
            }
            return .pass
        }
    }

    // MARK: - Sockets

    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func streamSocket() -> Int32 {
        #if canImport(Glibc)
            socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    private static func listeningSocket() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = streamSocket()
        guard descriptor >= 0 else { throw ProxyError(message: "socket() failed: errno \(errno)") }
        var address = loopback(0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw ProxyError(message: "bind/listen on 127.0.0.1 failed: errno \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, UInt16(bigEndian: actual.sin_port))
    }

    /// A connection to `127.0.0.1:port`, or nil when nothing listens there.
    private static func connectLoopback(_ port: UInt16) -> Int32? {
        let descriptor = streamSocket()
        guard descriptor >= 0 else { return nil }
        var address = loopback(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        keepSignalsQuiet(descriptor)
        return descriptor
    }

    /// On Darwin a write to a closed peer raises SIGPIPE unless the socket says not to; on Linux
    /// `send` takes `MSG_NOSIGNAL` instead.
    private static func keepSignalsQuiet(_ descriptor: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes all `count` bytes; false when the peer is gone. Never raises SIGPIPE.
    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], _ count: Int) -> Bool {
        var written = 0
        while written < count {
            let result = bytes.withUnsafeBytes { raw in
                #if canImport(Glibc)
                    send(descriptor, raw.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL))
                #else
                    send(descriptor, raw.baseAddress! + written, count - written, 0)
                #endif
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }
}

public struct ProxyError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
