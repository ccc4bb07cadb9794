import Foundation

/// The HTTP client a device uses to reach its server: libcurl on Linux (``CurlTransport``: URLSession
/// there spins a core while a long-poll waits), URLSession on Apple's systems.
public enum LiveTransport {
    public static func make(baseURL: URL) -> HTTPTransport {
        #if canImport(CCurl)
            CurlTransport(baseURL: baseURL)
        #else
            URLSessionTransport(baseURL: baseURL)
        #endif
    }
}
