import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Waits for a child started with Foundation's `Process` without `waitUntilExit()`.
///
/// On Linux, Foundation's `Process` sometimes never notices a child's exit when many children
/// start and end at once (the full suite on two cores): the child stays a zombie nobody reaps,
/// and `waitUntilExit()` spins a core forever. This waits for Foundation (sleeping, not spinning)
/// and reaps the child itself only once it has been a zombie for two seconds: reaping earlier
/// races Foundation's own bookkeeping, which then closed descriptors that were no longer its own.
public enum ChildExit {
    /// Blocks until `process` (already running) has exited; returns its exit status (128 + the
    /// signal when it was killed by one).
    @discardableResult
    public static func wait(for process: Process) -> Int32 {
        let pid = process.processIdentifier
        var zombieSince: Date?
        while process.isRunning {
            if let known = reaped.withLock({ $0[pid] }) { return known }
            if isZombie(pid) {
                let since = zombieSince ?? Date()
                zombieSince = since
                if Date().timeIntervalSince(since) > 2 {
                    var status: Int32 = 0
                    if waitpid(pid, &status, WNOHANG) == pid {
                        let signalled = status & 0x7f
                        let code = signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
                        reaped.withLock { $0[pid] = code }
                        return code
                    }
                }
            }
            usleep(5_000)
        }
        return process.terminationStatus
    }

    /// True when the process has exited and waits to be reaped (`Z` in `/proc/PID/stat`).
    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
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
