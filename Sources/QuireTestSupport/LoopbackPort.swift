import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Free TCP ports on 127.0.0.1, for programs that must be told their port before they start
/// (PostgreSQL, a load balancer's frontends).
public enum LoopbackPort {
    /// A port on 127.0.0.1 that nothing listens on now: the kernel's choice for a socket bound
    /// to port 0, released at once. Another program may take it before the caller does, so a
    /// caller that can retry on "address in use" should. Throws when no socket can be bound.
    public static func free() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw SocketFailure("no socket for a port probe") }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(socketFD, socketAddress, length) == 0 && getsockname(socketFD, socketAddress, &length) == 0
            }
        }
        guard bound else { throw SocketFailure("cannot bind a probe socket on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
