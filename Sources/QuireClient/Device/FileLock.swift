import Foundation
import QuireCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a file, held while a body runs: what serializes work that must not run
/// twice at once across the processes of one device (and across separate openers in one process:
/// each holder opens the file itself, and `flock` locks belong to the open file).
///
/// Taking the lock waits on a thread of its own (`BlockingWork.wait`), never on the concurrency
/// pool nor on Dispatch's threads (which that pool shares). The lock goes with the process if it
/// dies, so a killed holder never blocks the next one. Cancelling the caller while it waits does
/// not stop the wait; the body then runs and the caller sees its result.
public enum FileLock {
    /// Runs `body` while holding the lock on `file` (created 0600 if missing, its folder 0700).
    /// Throws when the file cannot be opened or locked.
    public static func holding<T: Sendable>(
        _ file: URL, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let path = file.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { close(descriptor) }
        try await BlockingWork.wait {
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
                }
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// Whether someone holds the lock on `file` now: tries to take it without waiting, and lets
    /// it go at once when it could.
    public static func isHeld(_ file: URL) -> Bool {
        let descriptor = open(file.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else { return errno == EWOULDBLOCK }
        }
        flock(descriptor, LOCK_UN)
        return false
    }
}
