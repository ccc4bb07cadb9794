import Foundation

/// The HTTP client a device uses to reach its server: libcurl on Linux (``CurlTransport``: URLSession
/// there spins a core while a long-poll waits), URLSession on Apple's systems.
public enum LiveTransport {
    /// A transport to `baseURL` under `trust`: its CA file for `https://`, and the plain-HTTP
    /// rule (``ServerTrust/refusal(of:)``), which fails every request before anything is sent.
    public static func make(baseURL: URL, trust: ServerTrust = .system) -> HTTPTransport {
        #if canImport(CCurl)
            CurlTransport(baseURL: baseURL, trust: trust)
        #else
            URLSessionTransport(baseURL: baseURL, trust: trust)
        #endif
    }
}
