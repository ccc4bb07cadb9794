import Foundation

/// A running process's peak resident memory, read from `/proc` as it runs (Linux): `VmHWM` only
/// grows, so the last reading before the process exits is its peak, give or take the last 5 ms.
public enum ProcessPeakMemory {
    /// Reads `pid`'s VmHWM, and its children's, every 5 ms until `isRunning` says it ended (or
    /// `timeout` passed); the largest of each, in bytes (0 when none was read, or no child ran).
    public static func watch(
        pid: Int32, while isRunning: () -> Bool, timeout: Duration = .seconds(300)
    ) async throws -> (own: Int, children: Int) {
        var peak = 0
        var children = 0
        let deadline = ContinuousClock.now + timeout
        while isRunning(), ContinuousClock.now < deadline {
            peak = max(peak, status(of: pid, "VmHWM:") * 1024)
            for child in Self.children(of: pid) {
                children = max(children, status(of: child, "VmHWM:") * 1024)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return (peak, children)
    }

    /// The number after `field` in `/proc/PID/status` (0 when it is gone).
    public static func status(of pid: Int32, _ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0
    }

    /// The processes whose parent is `pid`, from `/proc`.
    public static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { status(of: $0, "PPid:") == Int(pid) }
    }
}
