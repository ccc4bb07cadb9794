#if canImport(CCurl)
    import CCurl
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// ``HTTPTransport`` over libcurl's easy interface: the device's client on Linux.
    ///
    /// FoundationNetworking's URLSession drives libcurl's multi interface from Dispatch sources
    /// that wake on a socket being writable, so a request waiting for its answer (every long-poll
    /// of `quire watch`, 25 s at a time) spins about 40% of a core doing nothing (seen with
    /// strace: `poll(fd, 0)` and `epoll_wait` answering EPOLLOUT in a loop). It also ignores
    /// `timeoutInterval`, and resends a request without its body on a reused connection that died.
    /// Here each request is one easy handle performed on a thread of its own, which sleeps in
    /// `poll` until the socket has something: no CPU while waiting, and libcurl's own timeout.
    /// Handles are kept between requests (``CurlHandlePool``), so consecutive requests reuse one
    /// kept-alive connection; a handle whose request failed is closed, never reused.
    ///
    /// Failures are the URLError codes URLSession would give, so callers classify them the same
    /// way: no connection (`.cannotConnectToHost`, `.cannotFindHost`), `.timedOut`,
    /// `.secureConnectionFailed`, `.serverCertificateUntrusted` (the certificate did not verify
    /// against the trusted authorities or does not name the host), `.cannotOpenFile` (the CA file
    /// could not be loaded), `.networkConnectionLost`, and `.cancelled` when the caller's task is
    /// cancelled (within a second: libcurl's progress callback checks). A URL ``ServerTrust``
    /// refuses (plain HTTP to another machine) fails with
    /// `.appTransportSecurityRequiresSecureConnection`, as on iOS, before any connection is made.
    public final class CurlTransport: HTTPTransport {
        public let baseURL: URL
        public let trust: ServerTrust
        private let handles = CurlHandlePool()

        /// - Parameters:
        ///   - baseURL: the server, e.g. `https://notes.example.com` (no trailing path needed).
        ///   - trust: the CA file to verify `https://` against (CURLOPT_CAINFO; only its
        ///     authorities, not the system's), and whether plain HTTP may leave the machine.
        public init(baseURL: URL, trust: ServerTrust = .system) {
            _ = Self.globalInit
            self.baseURL = baseURL
            self.trust = trust
        }

        /// `curl_global_init` once per process, before any handle (it is not thread-safe).
        private static let globalInit: Void = {
            curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        }()

        public func send(_ request: TransportRequest) async throws -> TransportResponse {
            if trust.refusal(of: baseURL) != nil { throw URLError(.appTransportSecurityRequiresSecureConnection) }
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let exchange = CurlExchange(url: base + request.path, request: request, caFile: trust.caFile)
            let handles = handles
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // A thread of its own: a blocking perform must never hold one of the
                    // concurrency pool's few threads, nor Dispatch's, for a 25 s long-poll.
                    let thread = Thread {
                        continuation.resume(with: Result { try exchange.perform(with: handles) })
                    }
                    thread.stackSize = 512 * 1024
                    thread.start()
                }
            } onCancel: {
                exchange.cancel()
            }
        }
    }
#endif
