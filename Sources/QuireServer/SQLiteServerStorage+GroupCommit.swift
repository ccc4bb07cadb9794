import QuireSQLite

/// Group commit (issue 13, 6): note writes from concurrent requests share one transaction, so
/// one fsync makes many of them durable.
///
/// A write does not commit on its own: it joins ``SQLiteServerStorage/writeGroup`` and waits. The
/// first write to join an empty group schedules the group's flush on the actor, behind the
/// requests already waiting for it, so every write that arrived while the last COMMIT was
/// flushing joins this one; nothing waits on a timer. The flush opens one `BEGIN IMMEDIATE`,
/// applies each write in order as a savepoint of its own (exactly the single write's transaction,
/// nested), commits once, and only then answers each write with its own result. So:
/// - each request gets the answer it would have got alone, in the order the writes were applied
///   (a later write in the group sees the earlier ones, as it would after their commits);
/// - a write that throws rolls back to its savepoint and fails alone;
/// - nothing is answered before the COMMIT returns (`synchronous=FULL`); a COMMIT that fails
///   fails every write of its group, and none of them is stored.
extension SQLiteServerStorage {
    /// Runs `body` (a write that opens its own transaction) in the next shared commit, or at once
    /// when group commit is off.
    func grouped<T: Sendable>(_ body: @escaping () throws -> T) async throws -> T {
        guard groupsCommits else {
            let result = try body()
            writeGroup.commits += 1
            return result
        }
        return try await withCheckedThrowingContinuation { continuation in
            var outcome: Result<T, any Error>?
            writeGroup.members.append(
                WriteGroup.Member(
                    apply: { outcome = Result { try body() } },
                    finish: { commitError in
                        if let commitError {
                            continuation.resume(throwing: commitError)
                        } else {
                            continuation.resume(with: outcome ?? .failure(ServerStorageError.closed))
                        }
                    }))
            guard !writeGroup.flushScheduled else { return }
            writeGroup.flushScheduled = true
            Task { self.flushWriteGroup() }
        }
    }

    /// Applies every waiting write in one transaction, commits, then answers them.
    private func flushWriteGroup() {
        let members = writeGroup.members
        writeGroup.members = []
        writeGroup.flushScheduled = false
        do {
            let db = try open()
            try db.transaction {
                for member in members {
                    // SQLite rolls the whole transaction back by itself after some errors (a full
                    // disk, an I/O error): a savepoint begun then would run, and commit, on its own.
                    guard !db.isAutocommit else {
                        throw SQLiteError(
                            code: 4, message: "an earlier write's error rolled the shared transaction back",
                            sql: nil)
                    }
                    member.apply()
                }
            }
            writeGroup.commits += 1
            for member in members { member.finish(nil) }
        } catch {
            for member in members { member.finish(error) }
        }
    }

    /// How many commits of note writes this storage has made (with group commit off, one a
    /// write): fewer than the writes it answered when concurrent writes shared them. For tests
    /// and the benchmark.
    public var groupCommits: Int { writeGroup.commits }
}

/// The note writes waiting for ``SQLiteServerStorage``'s next shared commit, and how many it made.
struct WriteGroup {
    /// One waiting write: `apply` runs it inside the shared transaction, `finish` answers it after
    /// the COMMIT (with the COMMIT's error when that failed).
    struct Member {
        let apply: () -> Void
        let finish: ((any Error)?) -> Void
    }

    var members: [Member] = []
    var flushScheduled = false
    var commits = 0
}
