import Foundation
import QuireClient
import QuireTestSupport

/// Requests the network is holding back (the `.delay` fault), delivered later in the scheduler's
/// order, after requests sent since: delay and reordering in one.
final class HeldRequests: @unchecked Sendable {
    // `held` is guarded by `lock`; the server transport is Sendable.
    private let lock = NSLock()
    private var held: [TransportRequest] = []
    private let server: InProcessTransport

    init(server: InProcessTransport) {
        self.server = server
    }

    var count: Int { lock.withLock { held.count } }

    func hold(_ request: TransportRequest) {
        lock.withLock { held.append(request) }
    }

    /// Delivers the held request at `pick` modulo the count (nothing if none is held); the
    /// server's answer is lost, as its client gave up long ago.
    func deliver(pick: Int) async {
        let request: TransportRequest? = lock.withLock {
            held.isEmpty ? nil : held.remove(at: pick % held.count)
        }
        if let request { _ = try? await server.send(request) }
    }

    /// Delivers every held request, oldest first.
    func deliverAll() async {
        while count > 0 { await deliver(pick: 0) }
    }
}
