import Foundation
import QuireSpawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows output longer than the terminal through `$PAGER` (default `less -FRX`), as git does;
/// never when stdout is not a terminal, and not when `$PAGER` is empty or `cat`.
enum Pager {
    /// The terminal's height in rows: the window's, else `$LINES`; nil when unknown.
    static var terminalRows: Int? {
        if let rows = Console.windowSize?.rows, rows > 0 { return rows }
        return ProcessInfo.processInfo.environment["LINES"].flatMap { Int($0) }
    }

    /// Prints `lines`: through the pager when they are more than the terminal shows, else directly.
    static func show(_ lines: [String], console: Console) throws {
        let pager = ProcessInfo.processInfo.environment["PAGER"] ?? "less -FRX"
        guard console.stdoutIsTerminal, let rows = terminalRows, lines.count >= rows,
            !pager.trimmingCharacters(in: .whitespaces).isEmpty, pager != "cat"
        else {
            for line in lines { console.out(line) }
            return
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            for line in lines { console.out(line) }
            return
        }
        // The pager reads keys from the terminal and handles Ctrl-C; a pager quit early closes
        // the pipe, which must end the writing, not this process.
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
            signal(SIGPIPE, previousPipe)
        }
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let child: ChildProcess
        do {
            child = try ForegroundProcess.spawn(["/bin/sh", "-c", pager], what: "the pager", standardInput: ends[0])
        } catch {
            close(ends[0])
            close(ends[1])
            throw error
        }
        close(ends[0])
        var bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(ends[1], $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                break  // the pager quit
            }
            offset += written
        }
        bytes.removeAll()
        close(ends[1])
        child.wait()
    }
}
