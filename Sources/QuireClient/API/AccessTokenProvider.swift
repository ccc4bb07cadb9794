import Foundation

/// Where the API client gets its bearer token, and how it gets a new one after a 401.
public protocol AccessTokenProvider: Sendable {
    /// The token to send now; nil when signed out.
    func accessToken() async throws -> String?
    /// Called once after a 401: returns a fresh token, or nil if none can be had (signed out).
    func refreshedToken(after rejected: String) async throws -> String?
}

/// A fixed token that never refreshes (a token made by `quire-server add-account`).
public struct StaticTokenProvider: AccessTokenProvider {
    public let token: String?

    public init(token: String?) {
        self.token = token
    }

    public func accessToken() async throws -> String? { token }
    public func refreshedToken(after rejected: String) async throws -> String? { nil }
}
