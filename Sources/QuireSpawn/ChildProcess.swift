import CSpawn
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program started with `posix_spawn` and reaped with `waitpid` by this object alone.
///
/// Foundation's `Process` on Linux (Swift 6.3.1) is not used anywhere: its `run()` crashes now and
/// then on a buffer over-read while it lists `/proc/self/fd` (swift-corelibs-foundation#5472, a
/// signal 11 in `memmove`, seen in CI), and with many children at once it sometimes never notices
/// an exit. Here every descriptor this process opens for a child is close-on-exec, the child
/// starts with the default handling of every signal and an empty signal mask, and descriptors
/// above stderr are closed in it.
public final class ChildProcess: @unchecked Sendable {
    // `status` is written once, under `lock`, by whichever thread reaps the child; signals are
    // sent under the same lock, so never to a pid that was reaped (and maybe reused).
    public let pid: pid_t
    /// The write end of the child's stdin when it is a ``StandardStream/pipe``.
    public let input: FileHandle?
    /// The read end of the child's stdout when it is a ``StandardStream/pipe``.
    public let output: FileHandle?
    /// The read end of the child's stderr when it is a ``StandardStream/pipe``.
    public let errorOutput: FileHandle?
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `arguments` (a program, found on `PATH` when it has no slash, and its arguments),
    /// with this process's environment changed by `environment`, in this process group or a new
    /// one.
    /// - Throws: ``SpawnError`` when it cannot be started.
    public init(
        _ arguments: [String], environment: [String: String] = [:], stdin: StandardStream = .null,
        stdout: StandardStream = .inherit, stderr: StandardStream = .inherit, newProcessGroup: Bool = false
    ) throws {
        precondition(!arguments.isEmpty, "a child needs a program")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { for end in childEnds { close(end) } }
        var parentEnds: [Int32?] = []
        for (stream, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            switch stream {
            case .inherit:
                parentEnds.append(nil)
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
                parentEnds.append(nil)
            case .file(let path, let append):
                let flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC)
                posix_spawn_file_actions_addopen(&actions, target, path, flags, 0o644)
                parentEnds.append(nil)
            case .descriptor(let descriptor):
                posix_spawn_file_actions_adddup2(&actions, descriptor, target)
                parentEnds.append(nil)
            case .pipe:
                var ends: [Int32] = [-1, -1]
                guard cspawn_pipe_cloexec(&ends) == 0 else {
                    for case let end? in parentEnds { close(end) }
                    throw SpawnError(program: arguments[0], reason: String(cString: strerror(errno)))
                }
                let (childEnd, parentEnd) = target == STDIN_FILENO ? (ends[0], ends[1]) : (ends[1], ends[0])
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
                childEnds.append(childEnd)
                parentEnds.append(parentEnd)
            }
        }
        _ = cspawn_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number: Int32 in 1..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if newProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = Self.environment(changedBy: environment).map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            for case let end? in parentEnds { close(end) }
            throw SpawnError(program: arguments[0], reason: String(cString: strerror(spawned)))
        }
        self.pid = pid
        let handles = parentEnds.map { end in end.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) } }
        (input, output, errorOutput) = (handles[0], handles[1], handles[2])
    }

    /// Whether the child has not exited yet (reaping it when it has).
    public var isRunning: Bool { exitStatus == nil }

    /// The exit status once the child has exited (128 + the signal that killed it), else nil;
    /// never blocks.
    public var exitStatus: Int32? {
        lock.withLock { reapLocked() }
    }

    /// Blocks until the child exits; returns its exit status (128 + the signal that killed it).
    @discardableResult
    public func wait() -> Int32 {
        while true {
            if let status = exitStatus { return status }
            // Sleeps until the child has exited without reaping it, so that any thread may then
            // reap it under the lock.
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno != EINTR else { continue }
            // ECHILD: reaped meanwhile, by another thread here or (never expected) someone else.
            return lock.withLock {
                if let status = reapLocked() { return status }
                status = 255
                return 255
            }
        }
    }

    /// Waits at most `timeout` seconds; the exit status, or nil when the child still runs.
    public func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = exitStatus { return status }
            if Date() >= deadline { return nil }
            usleep(2_000)
        }
    }

    /// Sends `number` unless the child was already reaped.
    public func signal(_ number: Int32) {
        lock.withLock {
            if reapLocked() == nil { _ = kill(pid, number) }
        }
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
    }

    private func reapLocked() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let reaped = waitpid(pid, &raw, WNOHANG)
        guard reaped == pid else { return nil }
        let signalled = raw & 0x7f
        status = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
        return status
    }

    private static func environment(changedBy changes: [String: String]) -> [String] {
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in changes { environment[key] = value }
        return environment.map { "\($0.key)=\($0.value)" }
    }
}
