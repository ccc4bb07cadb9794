import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A device's sync lock (`sync.lock` in its directory, the exclusive `flock` each sync run of the
/// device takes), taken by a test to keep the device's syncs out for a moment.
public enum DeviceSyncLock {
    /// Runs `body` while holding the lock on `file`, waiting at most `timeout` seconds for it, and
    /// returns its result; nil (and `body` not run) when another process held the lock all that
    /// time. The lock is released when `body` returns or throws. Throws when the file cannot be
    /// opened or locked.
    public static func holding<T>(
        _ file: URL, timeout: TimeInterval, _ body: () async throws -> T
    ) async throws -> T? {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: file.path]) }
        defer { close(descriptor) }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: file.path])
            }
            if Date() > deadline { return nil }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
