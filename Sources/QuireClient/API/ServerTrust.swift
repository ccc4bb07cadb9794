import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a device may reach its server beyond the URL: the certificate authority it trusts, and
/// whether plain HTTP to another machine is allowed. Stored with the account
/// (``AccountSession/trust``), so every later request is made the same way.
///
/// The rule (``refusal(of:)``): `https://` always; `http://` only to a loopback address
/// (127.0.0.0/8, `::1`, `localhost`), unless ``allowsInsecureHTTP``. Everything a device sends,
/// the tokens included, would otherwise cross the network readable by anyone on the way, and
/// iOS refuses plain HTTP anyway. The live transports apply the rule to every request before
/// anything leaves the device, so no caller can forget it.
public struct ServerTrust: Codable, Sendable, Equatable {
    /// A PEM file of the certificate authorities to trust for `https://`, instead of the
    /// system's: a self-hosted server's own CA. Nil: the system's trust store.
    public var caFile: String?
    /// Plain `http://` to a host that is not loopback is allowed (nothing is encrypted).
    public var allowsInsecureHTTP: Bool

    public init(caFile: String? = nil, allowsInsecureHTTP: Bool = false) {
        self.caFile = caFile
        self.allowsInsecureHTTP = allowsInsecureHTTP
    }

    /// The system's certificate authorities, and plain HTTP to loopback only.
    public static let system = ServerTrust()

    /// Why requests to `url` are refused under this trust, or nil when they may be made: plain
    /// HTTP to a host that is not loopback, without ``allowsInsecureHTTP``.
    public func refusal(of url: URL) -> ServerTrustError? {
        guard url.scheme?.lowercased() == "http", !allowsInsecureHTTP else { return nil }
        guard let host = url.host, Self.isLoopback(host: host) else {
            return .insecureHTTP(host: url.host ?? url.absoluteString)
        }
        return nil
    }

    /// Whether `host` (as in a URL, IPv6 with or without brackets) is this machine: an address
    /// in 127.0.0.0/8, `::1` (or an IPv4-mapped 127 address), or the name `localhost`. Any
    /// other spelling (`127.1`, `0x7f.0.0.1`, `localhost.example`) is not, so it is refused.
    public static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "localhost." { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        let mappedLoopback =
            bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff && bytes[12] == 127
        return loopback || mappedLoopback
    }

    /// Checks that ``caFile``, when set, can be read and holds a PEM certificate.
    /// - Throws: ``ServerTrustError/unreadableCAFile(path:reason:)``.
    public func checkCAFile() throws(ServerTrustError) {
        guard let caFile else { return }
        guard let data = FileManager.default.contents(atPath: caFile) else {
            let reason = access(caFile, R_OK) == 0 ? "not a readable file" : String(cString: strerror(errno))
            throw .unreadableCAFile(path: caFile, reason: reason)
        }
        guard String(decoding: data, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw .unreadableCAFile(path: caFile, reason: "no PEM certificate in it (-----BEGIN CERTIFICATE-----)")
        }
    }
}

/// A server address or trust setting a device refuses to use.
public enum ServerTrustError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `http://` to a host that is not loopback.
    case insecureHTTP(host: String)
    /// The CA file cannot be read or holds no certificate.
    case unreadableCAFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .insecureHTTP(let host):
            "Plain http:// to \(host) would send everything unencrypted; use https://."
        case .unreadableCAFile(let path, let reason):
            "The certificate authority file \(path) cannot be used: \(reason)."
        }
    }
}
