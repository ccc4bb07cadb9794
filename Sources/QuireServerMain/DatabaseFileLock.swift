import Foundation
import QuireServer

#if canImport(Glibc)
    import Glibc
#endif

/// The claim of one `quire-server` on a SQLite database file: an exclusive `flock` on
/// `FILE.lock` beside it, held until ``release()`` or the process's end (the kernel lets go of it
/// then, after `kill -9` too), with the holder's pid written in it for the next one's message.
///
/// SQLite alone would let a second server open the file and keep the data whole, but each
/// server's long-polls would wake only for its own writes and each would wait on the other's
/// locks; several instances share a PostgreSQL database instead.
final class DatabaseFileLock {
    enum Failure: Error {
        /// Another process holds the lock; its pid when the file says it.
        case held(pid: Int32?)
        /// The lock file cannot be opened or locked: what the system said.
        case unusable(String)
    }

    /// The lock file's path for the database at `databasePath`.
    static func path(forDatabase databasePath: String) -> String { databasePath + ".lock" }

    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock of the database at `databasePath`, or says who holds it, without waiting.
    static func acquire(forDatabase databasePath: String) -> Result<DatabaseFileLock, Failure> {
        let path = path(forDatabase: databasePath)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failure(.unusable(String(cString: strerror(errno)))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            defer { close(descriptor) }
            guard reason == EWOULDBLOCK else { return .failure(.unusable(String(cString: strerror(reason)))) }
            return .failure(.held(pid: holder(of: descriptor)))
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) != 0 || pwrite(descriptor, pid, pid.count, 0) != pid.count {
            // The lock holds all the same; only the next server's message loses the pid.
            NotesServer.logToStandardError("cannot write the pid into \(path): \(String(cString: strerror(errno)))")
        }
        return .success(DatabaseFileLock(descriptor: descriptor))
    }

    /// The pid the holder wrote, nil while it has not yet (or the file says something else).
    private static func holder(of descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Lets the next server have the file.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
