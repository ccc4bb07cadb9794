/// Where one of a child's standard streams goes. The three are set up in the child in order
/// (stdin, stdout, stderr), so stderr as `.descriptor(STDOUT_FILENO)` goes wherever stdout went.
public enum StandardStream: Sendable {
    /// This process's own stream.
    case inherit
    /// `/dev/null`.
    case null
    /// A new pipe; this process holds the other end (``ChildProcess/input``, ``ChildProcess/output``
    /// or ``ChildProcess/errorOutput``).
    case pipe
    /// A file, created or truncated (or appended to), opened in the child.
    case file(String, append: Bool = false)
    /// A descriptor of this process (the read end of a pipe it feeds, say).
    case descriptor(Int32)
}
