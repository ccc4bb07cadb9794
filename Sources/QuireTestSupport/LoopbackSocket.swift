import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP connection on loopback, for tests that need what URLSession hides: the source
/// address (the whole of 127.0.0.0/8 is loopback on Linux, so 127.0.0.2 is "another client"),
/// half-sent requests, and seeing when the server closes the socket.
///
/// Blocking calls with short receive timeouts; one test task uses one socket at a time.
public final class LoopbackSocket: @unchecked Sendable {
    // @unchecked Sendable: the descriptor is set once; a test hands a socket between its tasks
    // but never uses one from two at once.
    public let descriptor: Int32

    /// Connects to `127.0.0.1:port` from `source` (any port). Throws when the connection fails.
    public init(port: UInt16, source: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailure("socket: \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &local.sin_addr)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) }
        }
        guard bound == 0, connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw SocketFailure("connect from \(source): errno \(code)")
        }
    }

    deinit { Glibc.close(descriptor) }

    /// Sends all of `text`; returns false when the server already closed the connection.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    /// Reads until the server closes the connection or `timeout` passes; returns what arrived
    /// and whether the server closed it.
    public func readToEnd(timeout: Duration) -> (data: Data, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = max(
                1, Int32(left.components.seconds * 1000) + Int32(left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, milliseconds) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return (data, true) }
            data.append(contentsOf: buffer[0..<count])
        }
        return (data, false)
    }

    /// Whether anything arrived or the server closed the socket, without waiting.
    public var hasAnswerOrClosed: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Closes the connection now (the peer sees an orderly close).
    public func shutDown() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

public struct SocketFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// One HTTP/1.1 exchange over a fresh loopback connection with `Connection: close`: the status,
/// the headers (names lowercased) and the body, or nil if no whole answer came within `timeout`.
public struct LoopbackExchange: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    public static func send(
        port: UInt16, _ method: String, _ target: String, headers: [String: String] = [:],
        body: Data = Data(), source: String = "127.0.0.1", timeout: Duration = .seconds(5)
    ) -> LoopbackExchange? {
        guard let socket = try? LoopbackSocket(port: port, source: source) else { return nil }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        guard socket.send(head + String(decoding: body, as: UTF8.self)) else { return nil }
        let (data, closed) = socket.readToEnd(timeout: timeout)
        guard closed else { return nil }
        return parse(data)
    }

    /// Parses a whole answer (the server closed after it, so the body is the rest).
    public static func parse(_ data: Data) -> LoopbackExchange? {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return LoopbackExchange(
            status: status, headers: headers, body: Data(text[split.upperBound...].utf8))
    }
}

/// Runs blocking socket work on a thread of its own: on the Swift concurrency pool (two threads
/// on two cores) it would starve the server's own tasks and measure the test, not the server.
public func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
