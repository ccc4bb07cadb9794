import QuireLock

/// The uploads a PATCH of this instance is storing now, so two PATCHes of one upload never write
/// its blob at once: the second answers 423 and the client asks HEAD for the offset. Across
/// instances the database's conditional confirmation keeps the offset right (only one of two
/// PATCHes checked against one offset confirms); see docs/deploying.md.
final class UploadLocks: Sendable {
    private let held = Locked<Set<String>>([])

    /// Takes `key` (account and upload id) unless a PATCH holds it; returns whether it did.
    func claim(_ key: String) -> Bool {
        held.withLock { $0.insert(key).inserted }
    }

    func release(_ key: String) {
        _ = held.withLock { $0.remove(key) }
    }
}
