import Foundation
import QuireClient
import QuireTestSupport
import QuireWire

/// The network between one simulated device and the server: delivers requests to the server's
/// real handler core in process, or meets them with the scripted faults of ``SimulationFault``.
///
/// Each scripted fault applies to the next request (`.expireCursor` to the next pull from a
/// cursor, `.failRotation` to the next key rotation); while disconnected, every request fails as
/// unreachable and consumes no fault.
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
    /// `.loseRefreshReply` is waiting for the next token refresh.
    private var loseNextRefreshReply = false
    /// `.failRotation`: the status the next key rotation is answered with.
    private var failNextRotation: Int?
    /// When a token refresh the server applied last failed to reach the device (its answer lost
    /// or the device crashed reading it); distantPast once one was held back and may be
    /// delivered after the device moved on (a replay). Nil again once a refresh answer arrives.
    private var refreshDisturbed: Date?
    /// How many refresh answers in a row the server applied and the device never got.
    private var refreshesLostInARow = 0
    private let now: @Sendable () -> Date

    /// The device's name in traces (`d3`).
    let name: String

    init(
        server: InProcessTransport, held: HeldRequests, name: String = "", tripsLastWriterWins: Bool = false,
        now: @escaping @Sendable () -> Date
    ) {
        self.name = name
        self.tripsLastWriterWins = tripsLastWriterWins
        self.server = server
        self.held = held
        self.now = now
    }

    /// Since when the device may hold refresh tokens the server replaced (see `refreshDisturbed`),
    /// and how many refresh answers in a row it lost since.
    var refreshDisturbance: (since: Date, lostInARow: Int)? {
        lock.withLock { refreshDisturbed.map { ($0, refreshesLostInARow) } }
    }

    /// Forgets a disturbed refresh: the device signed in again.
    func clearRefreshDisturbance() {
        lock.withLock {
            refreshDisturbed = nil
            refreshesLostInARow = 0
        }
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
            case .loseRefreshReply: loseNextRefreshReply = true
            case .failRotation(let status): failNextRotation = status
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
            loseNextRefreshReply = false
            failNextRotation = nil
        }
    }

    /// True once if a `.crashAfterDelivery` fired since the last call.
    func takeCrash() -> Bool {
        lock.withLock {
            defer { crashed = false }
            return crashed
        }
    }

    /// `.tripsLastWriterWins`: every trip op is sent as if based on the newest revision.
    let tripsLastWriterWins: Bool

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let request = tripsLastWriterWins ? Self.basedOnTheNewest(request) : request
        let isPullFromCursor =
            request.method == "GET" && (request.path.contains("since=") || request.path.contains("cursor="))
        // Note writes and trip ops requests: a token refresh is a POST too.
        let isWrite =
            request.method != "GET"
            && (request.path.hasPrefix(WireRoutes.notesPrefix)
                || (request.path.hasPrefix(WireRoutes.tripsPrefix) && request.path.contains("/ops")))
        let isBatch = request.path.hasPrefix("/v1/notes/batch")
        let isRefresh = request.method == "POST" && request.path == WireRoutes.refreshSession
        let isRotation =
            request.method == "POST" && request.path.hasPrefix(WireRoutes.tripsPrefix)
            && request.path.hasSuffix("/keys")
        let text = request.path + String(decoding: request.body ?? Data(), as: UTF8.self)
        let (fault, expire, unreachable): (SimulationFault?, Bool, Bool) = lock.withLock {
            if offline { return (nil, false, true) }
            if isRefresh, loseNextRefreshReply {
                loseNextRefreshReply = false
                return (.dropReply, false, false)
            }
            if isRotation, let status = failNextRotation {
                failNextRotation = nil
                return (.status(status), false, false)
            }
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
        if isRefresh {
            switch fault {
            case .dropReply?, .crashAfterDelivery?, .duplicate?:
                // A duplicate's first answer is lost too: the device sees only the second.
                lock.withLock {
                    refreshDisturbed = refreshDisturbed ?? now()
                    refreshesLostInARow += 1
                }
            case .delay?:
                lock.withLock { refreshDisturbed = .distantPast }
            default: break
            }
        }
        let traced = ["requests", "bodies"].contains(ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"])
        let bodies = ProcessInfo.processInfo.environment["QUIRE_SIM_TRACE"] == "bodies"
        if traced {
            FileHandle.standardError.write(
                Data(
                    "  \(name) \(request.method) \(request.path.prefix(60)) \(request.path.contains("known=") ? "[known] " : "")fault: \(fault.map { "\($0)" } ?? "none")\(expire ? " 410 injected" : "")\n"
                        .utf8))
            if bodies, let body = request.body, !body.isEmpty {
                FileHandle.standardError.write(
                    Data("    body: \(String(decoding: body.prefix(1500), as: UTF8.self))\n".utf8))
            }
        }
        switch fault {
        case nil:
            let response = try await server.send(request)
            if traced {
                FileHandle.standardError.write(Data("    -> \(response.status)\n".utf8))
            }
            if bodies, !response.body.isEmpty {
                FileHandle.standardError.write(
                    Data("    answer: \(String(decoding: response.body.prefix(1500), as: UTF8.self))\n".utf8))
            }
            if isRefresh, response.status == 200 {
                // The device holds the server's newest tokens again (unless a held refresh is
                // still to be delivered).
                lock.withLock {
                    if refreshDisturbed != .distantPast {
                        refreshDisturbed = nil
                        refreshesLostInARow = 0
                    }
                }
            }
            return response
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
        case .expireCursor, .poisonNote, .loseRefreshReply, .failRotation:
            // Never scripted: `enqueue` turns them into the state above.
            return try await server.send(request)
        }
    }

    /// A trip ops request with every op's base moved past any revision: the server then applies
    /// every op over whatever it holds (the sabotage that must lose values nobody saw).
    private static func basedOnTheNewest(_ request: TransportRequest) -> TransportRequest {
        guard request.method == "POST", request.path.hasPrefix(WireRoutes.tripsPrefix),
            request.path.contains("/ops"), let body = request.body,
            var ops = try? JSONDecoder().decode(TripOpsRequestDTO.self, from: body)
        else { return request }
        for index in ops.ops.indices { ops.ops[index].baseRevision = 1_000_000_000 }
        var rewritten = request
        rewritten.body = WireJSON.encode(ops)
        return rewritten
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
