import Foundation
import QuireLock

/// A few connections to one database, lent to one caller at a time.
///
/// Connections open lazily, up to `size`; a caller finding all of them lent waits (suspended, not
/// blocking a thread) until one comes back. The work itself runs on a thread of its own (see
/// ``onOwnThread(_:)``), never on a Swift concurrency thread: libpq blocks until the server
/// answers (a row lock may make that a while), and blocking the concurrency pool's few threads
/// would stall every other task. A
/// connection that broke is reconnected once when it comes back, else dropped.
///
/// Cancellation: a caller cancelled while it waits keeps waiting for its connection, and one
/// cancelled while its work runs lets the work finish; the result is returned either way.
public final class PostgresPool: Sendable {
    private struct State {
        var idle: [PostgresConnection] = []
        var open = 0
        var waiters: [CheckedContinuation<Next, Never>] = []
        var closed = false
    }

    private let connectionString: String
    public let size: Int
    private let state = Locked(State())

    /// A pool for `connectionString` (see ``PostgresConnection/init(_:)``) holding at most `size`
    /// connections. Opens the first one now, so a wrong address or password fails here.
    public init(_ connectionString: String, size: Int = 4) throws {
        precondition(size >= 1, "a pool needs at least one connection")
        self.connectionString = connectionString
        self.size = size
        let first = try PostgresConnection(connectionString)
        state.withLock {
            $0.idle.append(first)
            $0.open = 1
        }
    }

    /// Runs `work` with a connection of its own, off the concurrency pool, and returns its result.
    /// Throws what `work` throws, ``PostgresError`` when no connection can be made, and
    /// ``PostgresError/closed`` after ``close()``.
    public func withConnection<T: Sendable>(
        _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        let connection = try await acquire()
        defer { release(connection) }
        return try await onOwnThread { try work(connection) }
    }

    /// Like ``withConnection(_:)``, with `work` as one transaction that is run again (up to four
    /// more times) when the server aborts it as a serialization failure or a deadlock.
    public func transaction<T: Sendable>(
        _ isolation: PostgresConnection.Isolation = .readCommitted,
        _ work: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            var attempt = 0
            while true {
                do {
                    return try connection.transaction(isolation) { try work(connection) }
                } catch let error as PostgresError where error.isTransient && attempt < 4 {
                    attempt += 1
                }
            }
        }
    }

    /// Closes the idle connections and those lent out as they come back; later calls throw
    /// ``PostgresError/closed``.
    public func close() {
        let waiters = state.withLock { state in
            state.closed = true
            state.idle.removeAll()
            let waiters = state.waiters
            state.waiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: .closed) }
    }

    // MARK: - Lending

    /// What a caller asking for a connection is told: take this one, open one of its own (a
    /// place in the pool is reserved for it), wait, or give up.
    private enum Next: Sendable {
        case lend(PostgresConnection)
        case open
        case wait
        case closed
    }

    private func acquire() async throws -> PostgresConnection {
        var next: Next = state.withLock { state in
            if state.closed { return .closed }
            if let connection = state.idle.popLast() { return .lend(connection) }
            if state.open < size {
                state.open += 1
                return .open
            }
            return .wait
        }
        if case .wait = next {
            // Asked again under the lock: a connection may have come back meanwhile.
            next = await withCheckedContinuation { continuation in
                let now: Next? = state.withLock { state in
                    if state.closed { return .closed }
                    if let connection = state.idle.popLast() { return .lend(connection) }
                    if state.open < size {
                        state.open += 1
                        return .open
                    }
                    state.waiters.append(continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        }
        switch next {
        case .lend(let connection):
            return connection
        case .closed, .wait:
            throw PostgresError.closed
        case .open:
            let connectionString = self.connectionString
            do {
                return try await onOwnThread { try PostgresConnection(connectionString) }
            } catch {
                giveBack(nil)
                throw error
            }
        }
    }

    /// Returns a lent connection, after one try at reconnecting it if it broke.
    private func release(_ connection: PostgresConnection) {
        giveBack(connection.isHealthy || connection.reconnect() ? connection : nil)
    }

    /// Hands `connection` (nil: its place, when it broke or never opened) to the first waiter,
    /// or back to the idle ones.
    private func giveBack(_ connection: PostgresConnection?) {
        let (waiter, next): (CheckedContinuation<Next, Never>?, Next) = state.withLock { state in
            if state.closed {
                state.open -= 1
                return (nil, .closed)
            }
            guard !state.waiters.isEmpty else {
                if let connection { state.idle.append(connection) } else { state.open -= 1 }
                return (nil, .wait)
            }
            return (state.waiters.removeFirst(), connection.map { .lend($0) } ?? .open)
        }
        waiter?.resume(returning: next)
    }
}
