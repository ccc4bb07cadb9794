#if canImport(CCurl)
    import CCurl
    import Foundation

    /// The idle libcurl easy handles of one ``CurlTransport``, kept so the next request reuses a
    /// handle's open connection to the server (libcurl keeps a connection cache per handle)
    /// instead of a new TCP and TLS handshake each time: a sync of several pages, or a photo's
    /// fifty PATCHes, go over one connection.
    ///
    /// A handle is taken for one request and given back after it; a request that failed or was
    /// cancelled does not give its handle back (its connection may be half-used), and at most
    /// ``capacity`` idle handles are kept, so concurrent requests (a long-poll beside a push)
    /// each have their own and the pool never grows past a few connections.
    final class CurlHandlePool: @unchecked Sendable {
        // `idle` is guarded by `lock`.
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []
        let capacity: Int

        init(capacity: Int = 4) {
            self.capacity = capacity
        }

        deinit {
            for handle in idle { curl_easy_cleanup(handle) }
        }

        /// An idle handle with its options reset (its connections kept), or a new one.
        func take() -> UnsafeMutableRawPointer? {
            if let handle = lock.withLock({ idle.popLast() }) {
                curl_easy_reset(handle)
                return handle
            }
            return curl_easy_init()
        }

        /// Keeps `handle` for the next request (`reusable`: its request finished cleanly), or
        /// closes it and its connections.
        func give(_ handle: UnsafeMutableRawPointer, reusable: Bool) {
            let kept =
                reusable
                && lock.withLock {
                    guard idle.count < capacity else { return false }
                    idle.append(handle)
                    return true
                }
            if !kept { curl_easy_cleanup(handle) }
        }
    }
#endif
