import Foundation

/// Where a device keeps its ``AccountSession`` at rest: the Keychain on Apple, a file only its owner
/// can read on Linux (``FileCredentialStore``), memory in tests (``InMemoryCredentialStore``).
///
/// Calls are synchronous and may come from any thread; an implementation must be safe for that.
/// Each `save` replaces the whole session atomically: a reader sees the old one or the new one.
public protocol CredentialStore: Sendable {
    /// The stored session, or nil when there is none.
    /// - Throws: when the store exists but cannot be read or is not safe to read (e.g. a file that
    ///   others can read: `SecretFileError`).
    func load() throws -> AccountSession?
    /// Replaces the stored session.
    func save(_ session: AccountSession) throws
    /// Removes the stored session; removing none is not an error.
    func clear() throws
    /// Runs `body` while holding the store's refresh lock, so two holders of one session (two
    /// processes of one device) never present the same refresh token twice, which the server
    /// treats as theft. A store private to one process needs no lock.
    func whileRefreshing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

extension CredentialStore {
    public func whileRefreshing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }
}
