import Foundation
import QuireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What is at a server URL, asked with `GET /v1/health`: so a failed request can be explained by
/// what the user got wrong (no server running, https to a plain-HTTP server, some other web
/// server) rather than by a network error code.
struct ServerProbe {
    enum Finding: Equatable {
        /// A Quire server answered: the failure was the server's answer itself.
        case quire
        /// The connection was refused: nothing listens at that host and port.
        case nothingListening
        /// The host name does not resolve.
        case unknownHost
        /// `https://` got no TLS answer, and the same address answers plain HTTP.
        case plainHTTP(URL)
        /// `https://` answered with a certificate that did not verify against the trusted
        /// authorities (the system's, or the device's CA file).
        case untrustedCertificate
        /// The device's CA file cannot be read (moved, deleted) or holds no certificate.
        case unusableCAFile(String)
        /// Something answered, but not Quire's health route.
        case notQuire
        /// No answer in time, or another network failure.
        case noAnswer(detail: String)
    }

    /// How the device trusts the server (its CA file), so the probe sees what its requests saw.
    var trust: ServerTrust = .system
    var timeout: TimeInterval = 5

    func probe(_ url: URL) async -> Finding {
        do {
            try trust.checkCAFile()
        } catch {
            return .unusableCAFile(error.description)
        }
        switch await health(url) {
        case .success(let response):
            return Self.isQuireHealth(response) ? .quire : .notQuire
        case .failure(let error):
            switch error.code {
            case .cannotConnectToHost: return .nothingListening
            case .cannotFindHost, .dnsLookupFailed: return .unknownHost
            case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid:
                return .untrustedCertificate
            default: break
            }
            if url.scheme == "https", var plain = URLComponents(url: url, resolvingAgainstBaseURL: false) {
                plain.scheme = "http"
                if let plainURL = plain.url, case .success = await health(plainURL) { return .plainHTTP(plainURL) }
            }
            return .noAnswer(detail: "URLError \(error.code.rawValue)")
        }
    }

    private func health(_ url: URL) async -> Result<TransportResponse, URLError> {
        do {
            let request = TransportRequest(method: "GET", path: "/v1/health", timeout: timeout)
            return .success(try await LiveTransport.make(baseURL: url, trust: trust).send(request))
        } catch let error as URLError {
            return .failure(error)
        } catch {
            return .failure(URLError(.unknown))
        }
    }

    /// Quire's health route answers 200 with `{"status": "ok"}`.
    static func isQuireHealth(_ response: TransportResponse) -> Bool {
        guard response.status == 200,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return false }
        return object["status"] as? String == "ok"
    }
}
