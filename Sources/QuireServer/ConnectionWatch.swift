import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One open connection as the host tracks it: its socket, and since when it has been waiting
/// for a request to arrive whole (nil while the core handles a request or its answer is sent).
final class WatchedConnection: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is read and written under the owning
    // ConnectionWatch's lock.
    let token: UInt64
    let descriptor: Int32
    var receivingSince: ContinuousClock.Instant?
    var closedByDeadline = false
    /// Set while the connection is suspended for the core: called once if the client hangs up.
    var onHangUp: (@Sendable () -> Void)?

    init(token: UInt64, descriptor: Int32, now: ContinuousClock.Instant) {
        self.token = token
        self.descriptor = descriptor
        self.receivingSince = now
    }
}

/// The host's eye on its connections, from one thread of its own:
///
/// - **Deadlines.** A connection that has not delivered a whole request within the deadline of
///   its opening (or of its previous answer) is shut down; libmicrohttpd then sees the socket end
///   and closes it. libmicrohttpd's own timeout is idle-based, so a client sending a byte every
///   few seconds would otherwise hold its connection forever.
/// - **Hang-ups.** libmicrohttpd does not poll a suspended connection, so it cannot see a
///   long-poll's client go away. Suspended sockets sit in an epoll set asking only for
///   `EPOLLRDHUP`; a hang-up runs the connection's ``WatchedConnection/onHangUp`` (which cancels
///   the core's task, so the waiter ends and stops counting against its account's cap).
///
/// Descriptor reuse is safe: libmicrohttpd reports a connection closed (``closed(_:)``, under
/// the lock) before it closes the socket, and a suspended socket leaves the epoll set before its
/// connection resumes.
final class ConnectionWatch: @unchecked Sendable {
    // @unchecked Sendable: `connections`, `nextToken` and `running` are guarded by `lock`;
    // `epoll` and `deadline` are set once.
    private let lock = NSLock()
    private var connections: [UInt64: WatchedConnection] = [:]
    private var nextToken: UInt64 = 1
    private var running = true
    private let epoll: Int32
    private let deadline: Duration
    private let stopped = DispatchSemaphore(value: 0)

    init(requestDeadline: Duration) {
        self.deadline = requestDeadline
        self.epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let thread = Thread { [self] in run() }
        thread.name = "quire-connection-watch"
        thread.start()
    }

    /// Tracks a connection libmicrohttpd just accepted.
    func opened(descriptor: Int32) -> WatchedConnection {
        lock.withLock {
            let connection = WatchedConnection(
                token: nextToken, descriptor: descriptor, now: .now)
            nextToken += 1
            connections[connection.token] = connection
            return connection
        }
    }

    /// Forgets a connection libmicrohttpd is closing; called before its socket closes.
    func closed(_ connection: WatchedConnection) {
        lock.withLock {
            if connection.onHangUp != nil { _ = quire_watch_remove(epoll, connection.descriptor) }
            connection.onHangUp = nil
            connections[connection.token] = nil
        }
    }

    /// The connection's request arrived whole: its deadline stops counting.
    func requestArrived(_ connection: WatchedConnection) {
        lock.withLock { connection.receivingSince = nil }
    }

    /// Part of a long body (an upload's PATCH) arrived: its deadline moves later by `credit`,
    /// never past now. A body arriving at least as fast as the credit is counted keeps its
    /// connection however long it is; one trickling slower still meets the deadline.
    func bodyArrived(_ connection: WatchedConnection, credit: Duration) {
        lock.withLock {
            guard let since = connection.receivingSince else { return }
            connection.receivingSince = min(.now, since + credit)
        }
    }

    /// The connection's answer went out: it now waits for its next request, deadline counting.
    func answerSent(_ connection: WatchedConnection) {
        lock.withLock { connection.receivingSince = .now }
    }

    /// Watches a suspended connection for its client hanging up; `onHangUp` runs at most once,
    /// on the watch thread.
    func watchHangUp(_ connection: WatchedConnection, _ onHangUp: @escaping @Sendable () -> Void) {
        lock.withLock {
            connection.onHangUp = onHangUp
            _ = quire_watch_add(epoll, connection.descriptor, connection.token)
        }
    }

    /// Stops watching for a hang-up; call before resuming the connection.
    func unwatchHangUp(_ connection: WatchedConnection) {
        lock.withLock {
            guard connection.onHangUp != nil else { return }
            connection.onHangUp = nil
            _ = quire_watch_remove(epoll, connection.descriptor)
        }
    }

    /// Stops the watch thread and waits for it. Later calls do nothing.
    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        stopped.wait()
        close(epoll)
    }

    /// Connections open now, for tests.
    var openCount: Int { lock.withLock { connections.count } }

    // MARK: - The watch thread

    private func run() {
        var tokens = [UInt64](repeating: 0, count: 256)
        while lock.withLock({ running }) {
            let count = quire_watch_wait(epoll, &tokens, Int32(tokens.count), 100)
            var hungUp: [@Sendable () -> Void] = []
            lock.withLock {
                for token in tokens.prefix(max(0, Int(count))) {
                    guard let connection = connections[token], let action = connection.onHangUp
                    else { continue }
                    connection.onHangUp = nil
                    _ = quire_watch_remove(epoll, connection.descriptor)
                    hungUp.append(action)
                }
                let now = ContinuousClock.now
                for connection in connections.values where !connection.closedByDeadline {
                    guard let since = connection.receivingSince, now - since > deadline else {
                        continue
                    }
                    connection.closedByDeadline = true
                    shutdown(connection.descriptor, Int32(SHUT_RDWR))
                }
            }
            for action in hungUp { action() }
        }
        stopped.signal()
    }
}
