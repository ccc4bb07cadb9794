import Foundation
import QuireSpawn

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
    /// Spawns `arguments` (a path and its arguments) with the default handling of every signal
    /// (the CLI ignores some while a child owns the terminal), and stdin from `standardInput` when given (the write end of a pipe the caller
    /// feeds, say); stdout and stderr are this process's.
    /// - Throws: a ``CLIError`` naming `what` when it cannot be started.
    static func spawn(_ arguments: [String], what: String, standardInput: Int32? = nil) throws -> ChildProcess {
        do {
            return try ChildProcess(arguments, stdin: standardInput.map { .descriptor($0) } ?? .inherit)
        } catch let error as SpawnError {
            throw CLIError(code: .failure, message: "could not start \(what): \(error.reason)")
        }
    }
}
