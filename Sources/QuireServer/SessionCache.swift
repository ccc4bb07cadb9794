import Foundation
import QuireLock

/// The sessions the SQLite store has read, by access-token hash, so a request's session costs no
/// read transaction (issue 13, 6: the lookup and its file locks were a twentieth of a PUT's CPU).
///
/// Never stale: the store's one writer tells the cache when a row of `sessions` changes
/// (``sessionsChanging()``, from SQLite's update hook, before the change commits) and when its
/// commits are visible (``committed()``, from the WAL hook, after). In between, the cache holds
/// nothing and takes nothing, so a session revoked, refreshed or ended is refused from its commit
/// on, exactly as the read it replaces. A read that started before a change and ends after it
/// is not kept: each read carries the ``generation`` it began in, and only a read whose
/// generation is still current, with no change in flight, is kept.
///
/// Only the file's writing process sees its changes, so the cache is for a SQLite file that one
/// server serves (the embedded default); several instances share PostgreSQL, which has none.
final class SessionCache: Sendable {
    private struct State {
        var sessions: [String: AuthenticatedSession] = [:]
        var generation: UInt64 = 0
        /// A row of `sessions` changed in a transaction not yet committed.
        var changing = false
    }

    private let state = Locked(State())
    /// The most sessions kept; past it the cache starts over (every request still finds its
    /// session, from the file).
    let capacity: Int

    init(capacity: Int = 16_384) {
        self.capacity = capacity
    }

    /// The session kept for this access-token hash, if any.
    func session(accessHash: String) -> AuthenticatedSession? {
        state.withLock { $0.sessions[accessHash] }
    }

    /// The generation a read of the file begins in; nil while a change is in flight (nothing read
    /// then is kept).
    var generation: UInt64? {
        state.withLock { $0.changing ? nil : $0.generation }
    }

    /// Keeps `session`, read from the file in `generation`, if no change began since.
    func keep(_ session: AuthenticatedSession, accessHash: String, readIn generation: UInt64) {
        state.withLock { state in
            guard !state.changing, state.generation == generation else { return }
            if state.sessions.count >= capacity { state.sessions.removeAll(keepingCapacity: true) }
            state.sessions[accessHash] = session
        }
    }

    /// A row of `sessions` is changing in the writer's open transaction.
    func sessionsChanging() {
        state.withLock { state in
            state.changing = true
            state.generation &+= 1
            state.sessions.removeAll(keepingCapacity: true)
        }
    }

    /// The writer committed: what changed is now what every read sees. (A rolled-back change
    /// keeps the cache closed until the writer's next commit.)
    func committed() {
        state.withLock { state in
            guard state.changing else { return }
            state.changing = false
            state.generation &+= 1
            state.sessions.removeAll(keepingCapacity: true)
        }
    }

    /// How many sessions are kept, for tests.
    var count: Int { state.withLock { $0.sessions.count } }
}
