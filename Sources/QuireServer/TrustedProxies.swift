import Foundation

/// The reverse proxies whose `X-Forwarded-For` the server believes, and how it finds the client's
/// address behind them (issue 12, item 6).
///
/// Without trusted proxies the client's address is the socket's peer: a header any client can
/// write never decides whom the login throttle or the registration limit slows. When the peer is
/// a trusted proxy, the address is the last one in `X-Forwarded-For` that is not itself a trusted
/// proxy (reading from the right: each proxy appends the address it received from, so everything
/// left of the first untrusted entry may be made up by the client).
public struct TrustedProxies: Sendable, Equatable {
    /// The proxies' addresses, exactly as the socket reports them (`127.0.0.1`, `::1`).
    public var addresses: Set<String>

    public init(_ addresses: some Sequence<String> = []) {
        self.addresses = Set(addresses)
    }

    /// The address of the client behind `peer`: `peer` itself unless it is a trusted proxy;
    /// otherwise the last untrusted entry of `forwardedFor` (a comma-separated list), or `peer`
    /// when the header is missing, empty or names only trusted proxies.
    public func clientAddress(peer: String, forwardedFor: String?) -> String {
        guard addresses.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for hop in hops.reversed() where !hop.isEmpty && !addresses.contains(hop) {
            // A malformed entry is the proxy's bug or the client's forgery: keep the proxy's address.
            guard hop.count <= 64, hop.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else {
                return peer
            }
            return hop
        }
        return peer
    }
}
