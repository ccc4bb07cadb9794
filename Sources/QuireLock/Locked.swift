import Foundation

/// A value behind a lock, for code that builds for macOS 14: what Synchronization's `Mutex`
/// gives, which needs macOS 15 / iOS 18 (the package's minimum is macOS 14 / iOS 17).
///
/// `withLock` runs its body while holding the lock; the body must not call `withLock` on the
/// same value again (the lock is not recursive). The body is not cancelled.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, while holding `lock`.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value while holding the lock, and returns what it returns. Rethrows
    /// its error; the lock is released either way.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
