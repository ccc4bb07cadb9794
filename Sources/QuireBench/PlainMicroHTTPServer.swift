import CMicroHTTPD
import Foundation

/// The server-throughput baseline: libmicrohttpd in the same threading mode as `MicroHTTPServer`
/// (an epoll event loop on a pool of 2 threads), reading each request's body and answering a fixed
/// `200 {"version":1}`. What the host layer costs with no handler and no storage.
///
/// `@unchecked Sendable`: `daemon` is set once in `init` and used again only by `stop()`.
final class PlainMicroHTTPServer: @unchecked Sendable {
    let port: UInt16
    private var daemon: OpaquePointer?

    /// Listens on 127.0.0.1 on a free port. Throws when the daemon cannot start.
    init() throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
        let started: OpaquePointer? = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                let options: [CVarArg] = [
                    MHD_OPTION.SOCK_ADDR.rawValue, OpaquePointer(sockaddrPointer),
                    MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(2),
                    MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(10_000),
                    MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(60),
                    MHD_OPTION.END.rawValue,
                ]
                return withVaList(options) { arguments in
                    MHD_start_daemon_va(flags, 0, nil, nil, plainAccessHandler, nil, arguments)
                }
            }
        }
        guard let started else { throw BenchFailure("the plain libmicrohttpd server did not start") }
        daemon = started
        port = quire_mhd_bind_port(started)
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops the daemon (no request of this server is ever suspended, so this cannot abort).
    func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    deinit { stop() }
}

/// The baseline's one callback: a plain global function (PLATFORM.md: never a closure in main).
/// First call: headers, mark the request; middle calls: consume the body; last call: answer.
private func plainAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let connection, let uploadDataSize, let requestContext else { return .NO }
    if requestContext.pointee == nil {
        requestContext.pointee = UnsafeMutableRawPointer(bitPattern: 1)
        return .YES
    }
    if uploadDataSize.pointee > 0 {
        uploadDataSize.pointee = 0
        return .YES
    }
    let body = Array(#"{"version":1}"#.utf8)
    let created: OpaquePointer? = body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let response = created else { return .NO }
    defer { MHD_destroy_response(response) }
    _ = MHD_add_response_header(response, "Content-Type", "application/json")
    _ = MHD_add_response_header(response, "Cache-Control", "no-store")
    return MHD_queue_response(connection, 200, response)
}
