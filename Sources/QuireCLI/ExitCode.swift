/// The exit codes `quire` uses (BSD sysexits, as swift-argument-parser does for usage errors).
enum ExitCode: Int32 {
    case success = 0
    /// Something failed that fits no other code.
    case failure = 1
    /// `merge-file` only (diff3's and git merge-file's convention): trouble, no merge was made.
    case trouble = 2
    /// EX_USAGE: unknown command or flag, missing or malformed argument.
    case usage = 64
    /// EX_DATAERR: the input names something that does not exist (an unknown note id).
    case dataError = 65
    /// EX_UNAVAILABLE: the server could not be reached.
    case unavailable = 69
    /// EX_IOERR: the local database or a file could not be read or written.
    case ioError = 74
    /// EX_TEMPFAIL: the sync failed for now; try again later, nothing is lost.
    case tempFail = 75
    /// EX_NOPERM: not allowed: the server refused the credentials (sign in again), a password
    /// was wrong, or the trip role may not do it (only an owner deletes, restores or shares a trip).
    case noPermission = 77
    /// EX_CONFIG: no remote is configured.
    case config = 78
}
