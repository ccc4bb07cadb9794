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
    /// A status the next single write is refused with (`.refuseWrite`).
    private var refuseNextWrite: Int?
    /// `.poisonNote`: failures still owed, and the note once the next write names it.
    private var poisonCount = 0
    private var poisoned: String?
    private var offline = false
    private var crashed = false

    init(server: InProcessTransport, held: HeldRequests) {
        self.server = server
        self.held = held
    }

    /// Queues a fault for the next request.
    func enqueue(_ fault: SimulationFault) {
        lock.withLock {
            switch fault {
            case .expireCursor: expireNextPull = true
            case .refuseWrite(let status): refuseNextWrite = status
            case .poisonNote(let count):
                poisonCount = count
                poisoned = nil
            default: script.append(fault)
            }
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
            refuseNextWrite = nil
            poisonCount = 0
            poisoned = nil
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
        let isWrite = request.method != "GET"
        let isBatch = request.path.hasPrefix("/v1/notes/batch")
        let text = request.path + String(decoding: request.body ?? Data(), as: UTF8.self)
        let (fault, expire, unreachable): (SimulationFault?, Bool, Bool) = lock.withLock {
            if offline { return (nil, false, true) }
            if isWrite, let status = refuseNextWrite {
                // A batch is refused whole and the fault waits for the single write after it.
                if !isBatch { refuseNextWrite = nil }
                return (.refuseWrite(status), false, false)
            }
            if isWrite, poisonCount > 0 {
                if poisoned == nil { poisoned = Self.firstNoteID(in: text) }
                if let poisoned, text.contains(poisoned) {
                    poisonCount -= 1
                    return (.status(500), false, false)
                }
            }
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
        case .refuseWrite(let status):
            return Self.error(status: status, code: status == 413 ? "payload_too_large" : "invalid_payload")
        case .expireCursor, .poisonNote:
            // Never scripted: `enqueue` turns them into the state above.
            return try await server.send(request)
        }
    }

    /// The first note id (a UUID) a write names, in its path or body.
    private static func firstNoteID(in text: String) -> String? {
        let pattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
        return (try? pattern.firstMatch(in: text.lowercased())).flatMap { $0.map { String($0.output) } }
    }

    private static func error(status: Int, code: String) -> TransportResponse {
        let body = Data(
            #"{"error":{"code":"\#(code)","message":"injected by the simulation"}}"#.utf8)
        return TransportResponse(
            status: status, headers: ["content-type": "application/json"], body: body)
    }
}
