import Foundation
import QuireClient
import QuireTestSupport

/// The network between one simulated device and the server: delivers requests to the server's
/// real handler core in process, or meets them with the scripted faults of ``SimulationFault``.
///
/// Each scripted fault applies to the next request (`.expireCursor` to the next pull from a
/// cursor); while disconnected, every request fails as unreachable and consumes no fault.
final class SimulationTransport: HTTPTransport, @unchecked Sendable {
    // The mutable state is guarded by `lock`; `server` and `held` are Sendable.
    private let lock = NSLock()
    private let server: InProcessTransport
    private let held: HeldRequests
    private var script: [SimulationFault] = []
    private var expireNextPull = false
    private var offline = false
    private var crashed = false

    init(server: InProcessTransport, held: HeldRequests) {
        self.server = server
        self.held = held
    }

    /// Queues a fault for the next request.
    func enqueue(_ fault: SimulationFault) {
        lock.withLock {
            if fault == .expireCursor { expireNextPull = true } else { script.append(fault) }
        }
    }

    func setOffline(_ value: Bool) {
        lock.withLock { offline = value }
    }

    /// Forgets every scripted fault and reconnects: the network is healed.
    func heal() {
        lock.withLock {
            script = []
            expireNextPull = false
            offline = false
        }
    }

    /// True once if a `.crashAfterDelivery` fired since the last call.
    func takeCrash() -> Bool {
        lock.withLock {
            defer { crashed = false }
            return crashed
        }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let isPullFromCursor = request.method == "GET" && request.path.contains("since=")
        let (fault, expire, unreachable): (SimulationFault?, Bool, Bool) = lock.withLock {
            if offline { return (nil, false, true) }
            if isPullFromCursor && expireNextPull {
                expireNextPull = false
                return (nil, true, false)
            }
            return (script.isEmpty ? nil : script.removeFirst(), false, false)
        }
        if unreachable { throw URLError(.cannotConnectToHost) }
        if expire { return Self.error(status: 410, code: "cursor_expired") }
        switch fault {
        case nil:
            return try await server.send(request)
        case .dropRequest:
            throw URLError(.timedOut)
        case .dropReply:
            _ = try await server.send(request)
            throw URLError(.timedOut)
        case .duplicate:
            _ = try await server.send(request)
            return try await server.send(request)
        case .status(let status):
            return Self.error(status: status, code: "injected")
        case .throttled:
            var response = Self.error(status: 429, code: "too_many_requests")
            response.headers["retry-after"] = "1"
            return response
        case .delay:
            held.hold(request)
            throw URLError(.timedOut)
        case .crashAfterDelivery:
            _ = try await server.send(request)
            lock.withLock { crashed = true }
            throw URLError(.timedOut)
        case .expireCursor:
            // Never scripted: `enqueue` turns it into the flag above.
            return try await server.send(request)
        }
    }

    private static func error(status: Int, code: String) -> TransportResponse {
        let body = Data(
            #"{"error":{"code":"\#(code)","message":"injected by the simulation"}}"#.utf8)
        return TransportResponse(
            status: status, headers: ["content-type": "application/json"], body: body)
    }
}
