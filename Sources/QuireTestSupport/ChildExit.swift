import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a child started with Foundation's `Process` without `waitUntilExit()`.
///
/// On Linux, Foundation's `Process` sometimes never notices a child's exit when many children
/// start and end at once (the full suite on two cores): the child stays a zombie nobody reaps,
/// and `waitUntilExit()` spins a core forever. This reaps the child itself with `waitpid`; if
/// Foundation reaped it first, it waits (without spinning) for `Process` to say so.
public enum ChildExit {
    /// Blocks until `process` (already running) has exited; returns its exit status (128 + the
    /// signal when it was killed by one).
    @discardableResult
    public static func wait(for process: Process) -> Int32 {
        let pid = process.processIdentifier
        var status: Int32 = 0
        while true {
            if let known = reaped.withLock({ $0[pid] }) { return known }
            let result = waitpid(pid, &status, 0)
            if result == pid {
                let signalled = status & 0x7f
                let code = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
                reaped.withLock { $0[pid] = code }
                return code
            }
            if result < 0, errno == EINTR { continue }
            // Foundation reaped it first: it knows, or soon will.
            while process.isRunning {
                if let known = reaped.withLock({ $0[pid] }) { return known }
                usleep(5_000)
            }
            return process.terminationStatus
        }
    }

    /// Whether `process` is still running, also when this type reaped it (Foundation then never
    /// learns that it ended).
    public static func isRunning(_ process: Process) -> Bool {
        guard process.isRunning else { return false }
        return reaped.withLock { $0[process.processIdentifier] } == nil
    }

    /// Exit statuses of the children reaped here, by pid.
    private static let reaped = Locked<[Int32: Int32]>([:])
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    // `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&value) }
    }
}
