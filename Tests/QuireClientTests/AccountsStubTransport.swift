import Foundation
import QuireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ``HTTPTransport`` that gives one canned answer (or throws one error) and records what it
/// was sent, for checking how ``AccountsAPIClient`` builds requests and maps statuses.
///
/// `@unchecked Sendable`: its one mutable field is only touched while holding `lock`.
final class AccountsStubTransport: HTTPTransport, @unchecked Sendable {
    enum Answer: Sendable {
        case response(TransportResponse)
        case failure(URLError.Code)
    }

    private let answer: Answer
    private let lock = NSLock()
    private var sent: [TransportRequest] = []

    init(_ answer: Answer) {
        self.answer = answer
    }

    convenience init(status: Int, body: String = "", headers: [String: String] = [:]) {
        self.init(.response(TransportResponse(status: status, headers: headers, body: Data(body.utf8))))
    }

    var requests: [TransportRequest] { lock.withLock { sent } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { sent.append(request) }
        switch answer {
        case .response(let response): return response
        case .failure(let code): throw URLError(code)
        }
    }
}
