import Foundation

/// The Linux ``NetworkPath``: after a failed connection it probes the server's `GET /v1/health`
/// every `interval` until the server answers, then reports online again.
public actor ServerReachability: NetworkPath {
    private let transport: HTTPTransport
    private let clock: any Clock<Duration>
    private let interval: Duration
    private var online = true
    private var subscribers: [UUID: AsyncStream<Bool>.Continuation] = [:]
    private var probe: Task<Void, Never>?

    public init(
        transport: HTTPTransport, clock: any Clock<Duration> = ContinuousClock(), interval: Duration = .seconds(5)
    ) {
        self.transport = transport
        self.clock = clock
        self.interval = interval
    }

    public nonisolated func updates() -> AsyncStream<Bool> {
        AsyncStream { continuation in
            let id = UUID()
            Task { await self.subscribe(id, continuation) }
            continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        }
    }

    public func connectionFailed() {
        guard online else { return }
        set(online: false)
        probe = Task { await self.probeUntilReachable() }
    }

    private func probeUntilReachable() async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return
            }
            let answered =
                (try? await transport.send(
                    TransportRequest(method: "GET", path: "/v1/health", timeout: 5))) != nil
            if answered {
                set(online: true)
                return
            }
        }
    }

    private func set(online: Bool) {
        self.online = online
        for continuation in subscribers.values { continuation.yield(online) }
    }

    private func subscribe(_ id: UUID, _ continuation: AsyncStream<Bool>.Continuation) {
        subscribers[id] = continuation
        continuation.yield(online)
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    deinit {
        probe?.cancel()
    }
}
