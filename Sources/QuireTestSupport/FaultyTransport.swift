import Foundation
import QuireClient

/// Wraps a transport and injects the faults a phone meets in the field, one scripted fault per
/// request: the request is lost, the server applies it but the reply is lost, the server answers
/// 500 or 503, or the request is sent twice.
public final class FaultyTransport: HTTPTransport, @unchecked Sendable {
    // `script` and `log` are guarded by `lock`; the wrapped transport is Sendable.
    public enum Fault: Hashable, Sendable {
        /// Never reaches the server; the client sees a timeout.
        case dropRequest
        /// The server applies it; the reply never arrives; the client sees a timeout.
        case dropReply
        /// The server answers with this status and a JSON error, without applying anything.
        case status(Int)
        /// Delivered twice; the client sees the second answer.
        case duplicate
        /// Offline: no connection at all.
        case unreachable
        /// 429 with `Retry-After: seconds`, without applying anything.
        case throttled(retryAfter: Int)
    }

    private let inner: HTTPTransport
    private let lock = NSLock()
    private var script: [Fault?] = []
    private var persistent: Fault?
    private var rules: [(matches: @Sendable (TransportRequest) -> Bool, fault: Fault)] = []
    private var log: [String] = []

    public init(wrapping inner: HTTPTransport) {
        self.inner = inner
    }

    /// The next requests meet these faults in order (nil: delivered normally).
    public func enqueue(_ faults: Fault?...) {
        lock.withLock { script.append(contentsOf: faults) }
    }

    /// Every request meets this fault until it is set back to nil (e.g. `.unreachable` = offline).
    public func setPersistent(_ fault: Fault?) {
        lock.withLock { persistent = fault }
    }

    /// Every request that `matches` meets `fault`, until ``clearRules()``: one note the server
    /// keeps failing, say, while the others go through.
    public func always(_ fault: Fault, when matches: @escaping @Sendable (TransportRequest) -> Bool) {
        lock.withLock { rules.append((matches, fault)) }
    }

    public func clearRules() {
        lock.withLock { rules = [] }
    }

    /// "METHOD path" of every request that reached the server, in order.
    public var delivered: [String] { lock.withLock { log } }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let fault: Fault? = lock.withLock {
            if let persistent { return persistent }
            if let rule = rules.first(where: { $0.matches(request) }) { return rule.fault }
            return script.isEmpty ? nil : script.removeFirst()
        }
        switch fault {
        case nil:
            return try await deliver(request)
        case .dropRequest:
            throw URLError(.timedOut)
        case .dropReply:
            _ = try await deliver(request)
            throw URLError(.timedOut)
        case .status(let status):
            let body = Data(#"{"error":{"code":"injected","message":"injected fault"}}"#.utf8)
            return TransportResponse(status: status, headers: ["content-type": "application/json"], body: body)
        case .duplicate:
            _ = try await deliver(request)
            return try await deliver(request)
        case .unreachable:
            throw URLError(.cannotConnectToHost)
        case .throttled(let seconds):
            let body = Data(#"{"error":{"code":"too_many_requests","message":"slow down"}}"#.utf8)
            return TransportResponse(
                status: 429, headers: ["content-type": "application/json", "retry-after": "\(seconds)"],
                body: body)
        }
    }

    private func deliver(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { log.append("\(request.method) \(request.path)") }
        return try await inner.send(request)
    }
}
