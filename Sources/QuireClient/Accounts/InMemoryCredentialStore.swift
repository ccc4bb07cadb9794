import Foundation

/// A ``CredentialStore`` in memory, for tests and previews. Counts saves, so tests can check how
/// often the tokens were replaced.
///
/// `@unchecked Sendable`: its mutable fields are only touched while holding `lock`.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: AccountSession?
    private var saves = 0

    public init(_ session: AccountSession? = nil) {
        self.session = session
    }

    public func load() throws -> AccountSession? {
        lock.withLock { session }
    }

    public func save(_ session: AccountSession) throws {
        lock.withLock {
            self.session = session
            saves += 1
        }
    }

    public func clear() throws {
        lock.withLock { session = nil }
    }

    /// How many times `save` was called.
    public var saveCount: Int { lock.withLock { saves } }
}
