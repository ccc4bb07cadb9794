import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw TCP connection to `127.0.0.1:port` from a chosen loopback source address (all of
/// 127.0.0.0/8 is loopback on Linux): the flood benchmark's many clients, each just a socket.
/// Blocking calls; one thread uses one socket at a time.
final class BenchSocket {
    let descriptor: Int32

    init(port: UInt16, source: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchFailure("socket failed: errno \(errno)") }
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
            close(descriptor)
            throw BenchFailure("connect from \(source) failed: errno \(code)")
        }
    }

    deinit { close(descriptor) }

    @discardableResult
    func send(_ text: String) -> Bool {
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

    /// Whether anything arrived or the server closed the socket, without waiting.
    var hasAnswerOrClosed: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) > 0
    }

    /// Reads until the server closes the connection or `timeoutMilliseconds` pass.
    func readToEnd(timeoutMilliseconds: Int32) -> Data? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
        return nil
    }

    /// One request with `Connection: close`; the answer's status, or nil when none came whole.
    static func exchange(
        port: UInt16, _ method: String, _ target: String, headers: [String: String] = [:],
        body: String = "", source: String = "127.0.0.1"
    ) -> (status: Int, body: String)? {
        guard let socket = try? BenchSocket(port: port, source: source) else { return nil }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\n\r\n"
        guard socket.send(head + body), let data = socket.readToEnd(timeoutMilliseconds: 5_000) else {
            return nil
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)),
            let split = text.range(of: "\r\n\r\n")
        else { return nil }
        return (status, String(text[split.upperBound...]))
    }
}
