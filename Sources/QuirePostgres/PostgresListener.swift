import CLibPQ
import Foundation
import QuireLock

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps one connection of its own (never a pooled one) listening on a channel, on a thread of
/// its own, and hands each notification's payload to `onNotification`.
///
/// The thread waits on the connection's socket (`PQsocket`, `poll`), reads what arrived
/// (`PQconsumeInput`) and drains it (`PQnotifies`). A connection that breaks (the server went
/// away, an administrator ran `pg_terminate_backend` on it) is made again, after a short and
/// growing pause while that fails; `onConnect` runs each time listening (re)starts, because
/// notifications sent while no connection listened are lost: the caller treats it as "anything
/// may have changed". A connection silent for ``probeInterval`` is probed with a query, so one
/// that died without a word (a lost network path) is noticed too.
///
/// Both callbacks run on the listener's thread, one at a time; they must not block for long.
public final class PostgresListener: Sendable {
    private struct State {
        var stopped = false
        var backendProcessID: Int32?
        var connections = 0
    }

    private let connectionString: String
    private let channel: String
    private let onConnect: @Sendable () -> Void
    private let onNotification: @Sendable (String) -> Void
    private let state = Locked(State())
    /// A pipe whose write end ``stop()`` writes to, waking the thread's `poll` at once.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    /// How long a silent connection waits before it is probed with `SELECT 1`.
    public static let probeInterval: Int32 = 10_000

    /// Starts listening on `channel` (an SQL identifier: letters, digits and `_`) through a
    /// connection made with `connectionString` (see ``PostgresConnection/init(_:)``). Returns at
    /// once; the first connection is made on the listener's thread.
    public init(
        connectionString: String, channel: String, onConnect: @escaping @Sendable () -> Void,
        onNotification: @escaping @Sendable (String) -> Void
    ) {
        precondition(channel.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, "a plain channel name")
        self.connectionString = connectionString
        self.channel = channel
        self.onConnect = onConnect
        self.onNotification = onNotification
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0, "no pipe for the listener's wake-up")
        wakeRead = fds[0]
        wakeWrite = fds[1]
        let thread = Thread { [self] in run() }
        thread.stackSize = 1 << 20
        thread.name = "quire-pg-listener"
        thread.start()
    }

    deinit {
        // The thread holds `self` while it runs, so it has ended by now.
        close(wakeRead)
        close(wakeWrite)
    }

    /// Stops listening: the thread closes its connection and ends. Harmless to call twice.
    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The server process serving the listening connection now (nil between connections): what
    /// `pg_terminate_backend` takes, for tests.
    public var backendProcessID: Int32? { state.withLock { $0.backendProcessID } }

    /// How many times a listening connection was made so far.
    public var connections: Int { state.withLock { $0.connections } }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: - The thread

    private func run() {
        var pause: Int32 = 50
        while !isStopped {
            guard let connection = connect() else {
                if sleepUnlessStopped(milliseconds: pause) { return }
                pause = min(pause * 2, 2_000)
                continue
            }
            pause = 50
            state.withLock { state in
                state.backendProcessID = PQbackendPID(connection)
                state.connections += 1
            }
            onConnect()
            listen(on: connection)
            state.withLock { $0.backendProcessID = nil }
            PQfinish(connection)
        }
    }

    /// A connection that runs `LISTEN`, or nil when none could be made now.
    private func connect() -> OpaquePointer? {
        guard let connection = PQconnectdb(connectionString) else { return nil }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        guard PQstatus(connection) == CONNECTION_OK, Self.run("LISTEN \(channel)", on: connection) else {
            PQfinish(connection)
            return nil
        }
        return connection
    }

    /// Waits for notifications until the connection breaks or the listener stops.
    private func listen(on connection: OpaquePointer) {
        let socket = PQsocket(connection)
        while !isStopped {
            var fds = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Self.probeInterval)
            if isStopped || fds[1].revents != 0 { return }
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                // Silence: make sure the connection still answers (what the probe brings in
                // with it is drained below).
                guard Self.run("SELECT 1", on: connection) else { return }
            } else if PQconsumeInput(connection) == 0 {
                return
            }
            drain(connection)
            if PQstatus(connection) != CONNECTION_OK { return }
        }
    }

    private func drain(_ connection: OpaquePointer) {
        while let notification = PQnotifies(connection) {
            let payload = notification.pointee.extra.map { String(cString: $0) } ?? ""
            PQfreemem(notification)
            onNotification(payload)
        }
    }

    /// Sleeps up to `milliseconds`; returns true when the listener was stopped meanwhile.
    private func sleepUnlessStopped(milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, milliseconds)
        return isStopped
    }

    private static func run(_ sql: String, on connection: OpaquePointer) -> Bool {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
    }
}
