#if canImport(Security)
    import Foundation
    import Security

    /// URLSession's check of an `https://` server against the authorities of one CA file
    /// (``ServerTrust/caFile``) instead of the system's: a self-hosted server's own CA, on Apple's
    /// systems. (Written for iOS and macOS; this Linux machine cannot compile it.)
    ///
    /// On a server-trust challenge the server's chain is evaluated with the file's certificates as
    /// the only anchors (`SecTrustSetAnchorCertificatesOnly`), under the SSL policy URLSession
    /// already set on the trust (so the certificate must name the host, and be in date). When it
    /// does not chain to them, or the file holds no certificate, the challenge is cancelled and
    /// the task is remembered: URLSession reports such a task as cancelled, which
    /// ``URLSessionTransport`` turns into `URLError(.serverCertificateUntrusted)`, so a refused
    /// certificate never looks like the caller's cancellation. Any other challenge gets the
    /// default handling.
    ///
    /// `@unchecked Sendable`: `rejected` is guarded by `lock`; `caFile` is immutable.
    final class PinnedAuthorityDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        private let caFile: String
        private let lock = NSLock()
        private var rejected: Set<Int> = []

        init(caFile: String) {
            self.caFile = caFile
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge
        ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
            guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                let serverTrust = challenge.protectionSpace.serverTrust
            else { return (.performDefaultHandling, nil) }
            let anchors = Self.certificates(inPEMFile: caFile)
            if !anchors.isEmpty,
                SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray) == errSecSuccess,
                SecTrustSetAnchorCertificatesOnly(serverTrust, true) == errSecSuccess,
                SecTrustEvaluateWithError(serverTrust, nil)
            {
                return (.useCredential, URLCredential(trust: serverTrust))
            }
            _ = lock.withLock { rejected.insert(task.taskIdentifier) }
            return (.cancelAuthenticationChallenge, nil)
        }

        /// Whether the task with `identifier` was cancelled because its server was not trusted;
        /// forgets it (each task asks once, when it ends).
        func wasRejected(taskIdentifier identifier: Int) -> Bool {
            lock.withLock { rejected.remove(identifier) != nil }
        }

        /// Every `-----BEGIN CERTIFICATE-----` block of the PEM file; empty when it cannot be read.
        static func certificates(inPEMFile path: String) -> [SecCertificate] {
            guard let data = FileManager.default.contents(atPath: path) else { return [] }
            let text = String(decoding: data, as: UTF8.self)
            var found: [SecCertificate] = []
            var rest = text[...]
            while let begin = rest.range(of: "-----BEGIN CERTIFICATE-----"),
                let end = rest.range(of: "-----END CERTIFICATE-----", range: begin.upperBound..<rest.endIndex)
            {
                let base64 = String(rest[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace })
                if let der = Data(base64Encoded: base64),
                    let certificate = SecCertificateCreateWithData(nil, der as CFData)
                {
                    found.append(certificate)
                }
                rest = rest[end.upperBound...]
            }
            return found
        }
    }
#endif
