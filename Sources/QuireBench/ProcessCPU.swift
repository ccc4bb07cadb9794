import Foundation

/// This process's CPU time (user and system, every thread; not its children, so not `wrk`).
enum ProcessCPU {
    /// User and system CPU seconds of this process so far.
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Runs `body` and returns its result with the CPU seconds this process spent meanwhile.
    static func measure<T>(_ body: () throws -> T) rethrows -> (T, cpu: Double) {
        let before = seconds()
        let result = try body()
        return (result, seconds() - before)
    }
}
