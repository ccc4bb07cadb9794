import Foundation
import QuireLock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every `quire` process that opens a device holds a shared `flock` on `in-use.lock` in its data
/// directory until it exits; `quire logout` must turn its own into an exclusive one before it
/// erases anything. So logout cannot erase a database another process is still writing to (an
/// editor open in `quire edit`, which would then say "Saved" about text stored nowhere; `quire
/// watch`; a sync). One lock per directory per process: two `flock`s of one process on one file
/// conflict like two processes' would.
enum DeviceUseLock {
    /// The descriptor of each directory's lock file this process holds, by path.
    private static let held = Locked<[String: Int32]>([:])

    static func file(in directory: URL) -> URL { directory.appendingPathComponent("in-use.lock") }

    /// Takes the shared lock on `directory` for the rest of the process (once; later calls do
    /// nothing). Waits while a logout holds it exclusively, which takes a moment. A lock file
    /// that cannot be opened (a read-only directory) is no reason to refuse the command: it
    /// then protects nothing, as before there was one.
    static func holdShared(_ directory: URL) {
        let path = file(in: directory).path
        held.withLock { held in
            guard held[path] == nil else { return }
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return }
            while flock(descriptor, LOCK_SH) != 0, errno == EINTR {}
            held[path] = descriptor
        }
    }

    /// Turns this process's lock on `directory` exclusive, without waiting; false when another
    /// process holds it (the caller then leaves everything as it is). The lock stays exclusive
    /// until the process exits.
    static func takeExclusive(_ directory: URL) -> Bool {
        holdShared(directory)
        let path = file(in: directory).path
        guard let descriptor = held.withLock({ $0[path] }) else { return true }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EINTR else { return false }
        }
        return true
    }
}
