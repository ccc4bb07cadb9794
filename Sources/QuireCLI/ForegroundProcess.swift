import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a program in this process's own process group, on the same terminal (as git starts
/// editors and pagers): a terminal program (vi, less) owns the screen and the keyboard until it
/// exits. Foundation's `Process` starts children in a process group of their own, which the
/// terminal stops as soon as they read a key.
enum ForegroundProcess {
    /// Spawns `arguments` (a path and its arguments) with the default handling of the signals the
    /// CLI changes, and stdin from `standardInput` when given (the write end of a pipe the caller
    /// feeds, say); stdout and stderr are this process's.
    /// - Throws: a ``CLIError`` naming `what` when it cannot be started.
    static func spawn(_ arguments: [String], what: String, standardInput: Int32? = nil) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGTERM, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput { posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO) }

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            throw CLIError(code: .failure, message: "could not start \(what): \(String(cString: strerror(spawned)))")
        }
        return pid
    }

    /// Waits for `pid` to end; returns its exit status (128 + the signal for a killed program).
    static func wait(_ pid: pid_t) throws -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw CLIError(code: .failure, message: "lost track of a child: \(String(cString: strerror(errno)))")
            }
        }
        let signalled = status & 0x7f
        return signalled == 0 ? (status >> 8) & 0xff : 128 + signalled
    }
}
