import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``HTTPTransport`` over URLSession, against one server.
///
/// Two defences against URLSession on Linux (FoundationNetworking over libcurl), both found by the
/// live chaos test through a lossy proxy:
/// - Every request asks for `Connection: close`, so no request ever goes out on a reused
///   connection. When a reused connection dies before its reply, libcurl resends the request on a
///   fresh one with its headers and without its body; the server then waits for a body that never
///   comes, and the device's sync hung up to a minute holding its sync lock.
/// - The request's timeout is enforced here: FoundationNetworking does not honour
///   `timeoutInterval` (it waits 60 s whatever is set). At the deadline the task is cancelled and
///   the request fails as `URLError(.timedOut)`, like any lost reply.
///
/// A URL ``ServerTrust`` refuses (plain HTTP to another machine) fails with
/// `URLError(.appTransportSecurityRequiresSecureConnection)` before any connection is made. A CA
/// file is honoured on Apple's systems (``PinnedAuthorityDelegate``: the server's certificate
/// must chain to it); FoundationNetworking has no per-session trust, so there a transport given
/// a CA file refuses `https://` (`.secureConnectionFailed`) rather than trust the system store
/// instead. Linux devices use ``CurlTransport``.
public final class URLSessionTransport: HTTPTransport {
    public let baseURL: URL
    public let trust: ServerTrust
    private let session: URLSession

    /// - Parameter baseURL: the server, e.g. `https://notes.example.com` (no trailing path needed).
    public init(
        baseURL: URL, configuration: URLSessionConfiguration = .ephemeral, trust: ServerTrust = .system
    ) {
        self.baseURL = baseURL
        self.trust = trust
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        #if canImport(Security)
            let delegate = trust.caFile.map { PinnedAuthorityDelegate(caFile: $0) }
            self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        #else
            self.session = URLSession(configuration: configuration)
        #endif
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        if trust.refusal(of: baseURL) != nil { throw URLError(.appTransportSecurityRequiresSecureConnection) }
        #if !canImport(Security)
            if trust.caFile != nil, baseURL.scheme?.lowercased() == "https" { throw URLError(.secureConnectionFailed) }
        #endif
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + request.path) else {
            throw URLError(.badURL)
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.setValue("close", forHTTPHeaderField: "Connection")
        // Bodies go in httpBody: upload(for:from:) hides them from URLProtocol fakes.
        urlRequest.httpBody = request.body
        let (data, response) = try await Self.data(for: urlRequest, in: session, deadline: request.timeout)
        guard let http = response as? HTTPURLResponse else {
            throw URLError(.badServerResponse)
        }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String {
                headers[key.lowercased()] = value
            }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}

extension URLSessionTransport {
    /// The answer to `request`, or `URLError(.timedOut)` once `deadline` seconds pass, whichever
    /// comes first; cancelling the caller cancels the request (`URLError(.cancelled)`).
    static func data(for request: URLRequest, in session: URLSession, deadline: TimeInterval) async throws
        -> (Data, URLResponse)
    {
        let answer = OneAnswer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        answer.give(.success((data, response)), to: continuation)
                    } else {
                        var failure = error ?? URLError(.badServerResponse)
                        #if canImport(Security)
                            // Cancelled by the CA check, not by the caller: say so.
                            if let pinned = session.delegate as? PinnedAuthorityDelegate,
                                let identifier = answer.taskIdentifier,
                                pinned.wasRejected(taskIdentifier: identifier)
                            {
                                failure = URLError(.serverCertificateUntrusted)
                            }
                        #endif
                        answer.give(.failure(failure), to: continuation)
                    }
                }
                answer.start(task)
                task.resume()
                let timer = DispatchWorkItem {
                    answer.give(.failure(URLError(.timedOut)), to: continuation)
                    task.cancel()
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + max(deadline, 0.001), execute: timer)
                answer.onGiven { timer.cancel() }
            }
        } onCancel: {
            answer.cancel()
        }
    }

    /// The first of several possible answers (the reply, the deadline, a cancellation) wins.
    private final class OneAnswer: @unchecked Sendable {
        // Every field is guarded by `lock`.
        private let lock = NSLock()
        private var given = false
        private var task: URLSessionDataTask?
        private var cancelled = false
        private var whenGiven: (() -> Void)?

        /// The task's identifier, once started.
        var taskIdentifier: Int? { lock.withLock { task?.taskIdentifier } }

        func start(_ task: URLSessionDataTask) {
            let cancelNow = lock.withLock {
                self.task = task
                return cancelled
            }
            if cancelNow { task.cancel() }
        }

        func cancel() {
            let task = lock.withLock {
                cancelled = true
                return self.task
            }
            task?.cancel()
        }

        func onGiven(_ action: @escaping () -> Void) {
            let already = lock.withLock {
                if given { return true }
                whenGiven = action
                return false
            }
            if already { action() }
        }

        func give(
            _ result: Result<(Data, URLResponse), Error>,
            to continuation: CheckedContinuation<(Data, URLResponse), Error>
        ) {
            let action: (() -> Void)?? = lock.withLock {
                guard !given else { return nil }
                given = true
                defer { whenGiven = nil }
                return .some(whenGiven)
            }
            guard let action else { return }
            action?()
            continuation.resume(with: result)
        }
    }
}

// URLSession is thread-safe; the class holds only immutable references.
extension URLSessionTransport: @unchecked Sendable {}
