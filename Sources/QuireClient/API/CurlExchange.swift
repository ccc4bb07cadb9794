#if canImport(CCurl)
    import CCurl
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One request performed with a libcurl easy handle (``CurlTransport``): set up, performed to
    /// the end on the calling thread, and turned into a ``TransportResponse`` or a URLError.
    final class CurlExchange: @unchecked Sendable {
        // `cancelled` is guarded by `lock` (set by the canceller, read by libcurl's progress
        // callback); the answer's fields are written only by the performing thread, and read by it.
        private let url: String
        private let request: TransportRequest
        private let caFile: String?
        private let lock = NSLock()
        private var cancelled = false
        private var body = Data()
        private var headers: [String: String] = [:]

        init(url: String, request: TransportRequest, caFile: String? = nil) {
            self.url = url
            self.request = request
            self.caFile = caFile
        }

        func cancel() {
            lock.withLock { cancelled = true }
        }

        private var isCancelled: Bool { lock.withLock { cancelled } }

        /// Performs the request with a handle from `pool` (given back after a clean answer, so its
        /// connection serves the next request); blocks until the answer, a failure or the
        /// request's timeout.
        func perform(with pool: CurlHandlePool) throws -> TransportResponse {
            if isCancelled { throw URLError(.cancelled) }
            guard let handle = pool.take() else { throw URLError(.cannotLoadFromNetwork) }
            var reusable = false
            defer { pool.give(handle, reusable: reusable) }
            var strings: [UnsafeMutablePointer<CChar>] = []
            defer { strings.forEach { free($0) } }
            func string(_ text: String) -> UnsafeMutablePointer<CChar> {
                let copy = strdup(text)!
                strings.append(copy)
                return copy
            }
            var list: UnsafeMutablePointer<curl_slist>?
            defer { curl_slist_free_all(list) }
            var lines = request.headers.map { "\($0.key): \($0.value)" }
            // No `Expect: 100-continue` round trip before a body.
            lines += ["Expect:"]
            for line in lines { list = curl_slist_append(list, line) }

            let milliseconds = max(1, Int(request.timeout * 1_000))
            qcurl_set_pointer(handle, CURLOPT_URL, string(url))
            qcurl_set_long(handle, CURLOPT_NOSIGNAL, 1)
            qcurl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
            qcurl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, min(milliseconds, 10_000))
            qcurl_set_pointer(handle, CURLOPT_HTTPHEADER, list)
            if let caFile {
                // Only the given authorities: a self-hosted server's CA, not the system's as well.
                qcurl_set_pointer(handle, CURLOPT_CAINFO, string(caFile))
                qcurl_set_pointer(handle, CURLOPT_CAPATH, nil)
            }
            var reason = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
            var upload: Data?
            if request.method == "GET" {
                qcurl_set_long(handle, CURLOPT_HTTPGET, 1)
            } else if request.method == "HEAD" {
                // A HEAD answer has no body, whatever its Content-Length says: do not wait for one.
                qcurl_set_long(handle, CURLOPT_NOBODY, 1)
            } else {
                qcurl_set_pointer(handle, CURLOPT_CUSTOMREQUEST, string(request.method))
                if let payload = request.body ?? (request.method == "POST" ? Data() : nil) {
                    // The size first: POSTFIELDS then sends that many bytes (NULs included),
                    // read from `payload` during the perform below (no copy: a photo's 4 MiB
                    // PATCH would otherwise be held twice).
                    qcurl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count))
                    upload = payload
                }
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            qcurl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            qcurl_set_data_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                let exchange = Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue()
                if let data {
                    exchange.body.append(
                        UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: size * count)
                }
                return size * count
            }
            qcurl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            qcurl_set_data_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                let exchange = Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue()
                if let data {
                    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
                    exchange.header(String(decoding: bytes, as: UTF8.self))
                }
                return size * count
            }
            qcurl_set_long(handle, CURLOPT_NOPROGRESS, 0)
            qcurl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
            qcurl_set_progress_callback(handle) { context, _, _, _, _ in
                Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
            }

            let code = reason.withUnsafeMutableBufferPointer { buffer in
                qcurl_set_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
                defer { qcurl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil) }
                guard let upload else { return curl_easy_perform(handle) }
                // The bytes stay where they are, and valid, for as long as the perform runs.
                return upload.withUnsafeBytes { bytes in
                    qcurl_set_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(string("")))
                    defer { qcurl_set_pointer(handle, CURLOPT_POSTFIELDS, nil) }
                    return curl_easy_perform(handle)
                }
            }
            guard code == CURLE_OK else {
                let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw Self.error(code, cancelled: isCancelled, reason: text)
            }
            var status = 0
            qcurl_response_code(handle, &status)
            reusable = true
            return TransportResponse(status: status, headers: headers, body: body)
        }

        /// One header line: a status line starts the headers over (a `100 Continue`, say).
        private func header(_ line: String) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
                return
            }
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            headers[name] = value
        }

        /// The URLError URLSession would report for this libcurl failure; libcurl's own words
        /// (`reason`, e.g. "SSL certificate problem: unable to get local issuer certificate") ride
        /// along as its description, for `--verbose`.
        static func error(_ code: CURLcode, cancelled: Bool, reason: String = "") -> URLError {
            let error = urlError(code, cancelled: cancelled)
            guard !reason.isEmpty else { return error }
            return URLError(error.code, userInfo: [NSLocalizedDescriptionKey: reason])
        }

        private static func urlError(_ code: CURLcode, cancelled: Bool) -> URLError {
            switch code {
            case CURLE_ABORTED_BY_CALLBACK where cancelled: URLError(.cancelled)
            case CURLE_COULDNT_CONNECT: URLError(.cannotConnectToHost)
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: URLError(.cannotFindHost)
            case CURLE_OPERATION_TIMEDOUT: URLError(.timedOut)
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: URLError(.badURL)
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_ISSUER_ERROR: URLError(.serverCertificateUntrusted)
            case CURLE_SSL_CACERT_BADFILE: URLError(.cannotOpenFile)
            case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
                URLError(.secureConnectionFailed)
            default: URLError(.networkConnectionLost)
            }
        }
    }
#endif
