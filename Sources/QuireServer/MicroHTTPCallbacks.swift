import CGnuTLS
import CMicroHTTPD
import Dispatch
import Foundation
import QuireWire

// libmicrohttpd's callbacks. They are plain global functions, not closures, and live outside
// `main.swift`: a closure there would be MainActor-isolated and trap on an MHD thread (PLATFORM.md).

/// What every callback of one daemon shares: the core to hand requests to; the requests in
/// flight (entered when a request goes to the core, left when MHD reports it completed), so a
/// stop can let answers finish sending before it closes the sockets; the connection watch
/// (deadlines, hang-ups); and the requests whose connection is suspended while the core works.
final class MicroHTTPHostContext: @unchecked Sendable {
    // @unchecked Sendable: `suspended` and `isStopping` are guarded by `lock`; the rest is
    // immutable or thread-safe itself.
    let core: NotesServer
    let inFlight = DispatchGroup()
    let watch: ConnectionWatch
    /// Connections speak TLS: an answer written past libmicrohttpd goes through GnuTLS.
    let usesTLS: Bool
    private let lock = NSLock()
    private var suspended: [ObjectIdentifier: PendingAnswer] = [:]
    private var isStopping = false

    init(core: NotesServer, watch: ConnectionWatch, usesTLS: Bool = false) {
        self.core = core
        self.watch = watch
        self.usesTLS = usesTLS
    }

    /// Records a connection about to be suspended; false once the host is stopping (the
    /// connection must then be answered at once: a suspended connection aborts MHD_stop_daemon).
    func register(_ pending: PendingAnswer) -> Bool {
        lock.withLock {
            guard !isStopping else { return false }
            suspended[ObjectIdentifier(pending)] = pending
            return true
        }
    }

    func unregister(_ pending: PendingAnswer) {
        _ = lock.withLock { suspended.removeValue(forKey: ObjectIdentifier(pending)) }
    }

    /// Marks the host stopping and answers every request still suspended with 503, which
    /// resumes its connection. After it returns no connection is or will be suspended.
    func resumeEverySuspendedConnection() {
        let all = lock.withLock {
            isStopping = true
            return Array(suspended.values)
        }
        for pending in all { pending.finish(.error(.unavailable)) }
    }
}

/// One request handed to the core: the task computing its answer and the connection, suspended
/// in libmicrohttpd until the answer is ready, so no event-loop thread waits for the core.
///
/// `finish` and `suspendUnlessAnswered` take `lock`, so the connection is resumed only after it
/// was suspended, exactly once, and never after the answer was taken another way.
final class PendingAnswer: @unchecked Sendable {
    // @unchecked Sendable: `answer`, `isSuspended` and `task` are guarded by `lock`;
    // `connection` is used only while MHD keeps it suspended (it cannot close it then).
    private let lock = NSLock()
    private var answer: HTTPResponse?
    private var isSuspended = false
    private var task: Task<Void, Never>?
    private let connection: OpaquePointer
    private let watched: WatchedConnection?
    private unowned let host: MicroHTTPHostContext

    init(connection: OpaquePointer, watched: WatchedConnection?, host: MicroHTTPHostContext) {
        self.connection = connection
        self.watched = watched
        self.host = host
    }

    /// Starts the core on `request`.
    func start(_ request: HTTPRequest) {
        let core = host.core
        let task = Task { [self] in finish(await core.handle(request)) }
        lock.withLock { self.task = task }
    }

    /// On the MHD thread, inside the access handler: the answer if the core already has one;
    /// else suspends the connection (and watches its client hanging up, when it was given a
    /// watched connection: a read's) and returns nil.
    func suspendUnlessAnswered() -> HTTPResponse? {
        lock.withLock {
            if let answer { return answer }
            guard host.register(self) else {
                answer = .error(.unavailable)
                return answer
            }
            MHD_suspend_connection(connection)
            isSuspended = true
            if let watched {
                host.watch.watchHangUp(watched) { [self] in cancel() }
            }
            return nil
        }
    }

    /// Stores the answer (the first one wins) and resumes the connection if it is suspended;
    /// MHD then calls the access handler again, which queues ``takeAnswer()``.
    func finish(_ response: HTTPResponse) {
        lock.withLock {
            guard answer == nil else { return }
            answer = response
            guard isSuspended else { return }
            isSuspended = false
            if let watched { host.watch.unwatchHangUp(watched) }
            host.unregister(self)
            MHD_resume_connection(connection)
        }
    }

    func takeAnswer() -> HTTPResponse? {
        lock.withLock { answer }
    }

    /// The client went away: cancel the core's work (a long-poll then ends at once).
    func cancel() {
        lock.withLock { task }?.cancel()
    }
}

/// One request's state across the access handler's calls: its body so far, then the answer
/// being computed. Touched only by MHD's thread for the connection, one call at a time.
final class MicroHTTPRequestContext {
    var body = Data()
    /// The request's headers, read at the first call (they do not change after it).
    var headers: [String: String] = [:]
    var tooLarge = false
    var answered = false
    var pending: PendingAnswer?
    /// The most body bytes this request may send and the answer past them (the core's
    /// ``NotesServer/bodyLimit(method:path:)``: larger for an upload's PATCH).
    var limit = WireRoutes.maxBodyBytes
    var refusal = APIError.payloadTooLarge
    /// For an upload's PATCH: the slowest rate (bytes a second) at which its body earns more
    /// time than the request deadline; nil for other requests.
    var creditRate: Int?
}

/// Gathers header or query values into a `[String: String]` box.
private final class ValueCollector {
    var values: [String: String] = [:]
}

/// The connection's ``WatchedConnection``, stored in MHD's socket context when it opened.
private func watchedConnection(_ connection: OpaquePointer) -> WatchedConnection? {
    guard let raw = quire_mhd_socket_context(connection) else { return nil }
    return Unmanaged<WatchedConnection>.fromOpaque(raw).takeUnretainedValue()
}

func quireAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestContext
    else { return .NO }
    let host = Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue()

    // First call: headers only. Refuse a declared oversize body before reading any of it.
    guard let stored = requestContext.pointee else {
        let context = MicroHTTPRequestContext()
        requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        let limit = host.core.bodyLimit(method: String(cString: method), path: String(cString: url))
        (context.limit, context.refusal, context.creditRate) = (limit.bytes, limit.refusal, limit.slowestRate)
        let headers = collect(connection, kind: .HEADER_KIND)
        context.headers = headers
        let length = headers.first { $0.key.lowercased() == "content-length" }
        // Content-Length beside Transfer-Encoding: libmicrohttpd reads the body as chunked, and
        // a proxy in front that reads Content-Length would see a second request where this host
        // sees body, or the other way round (request smuggling). Refuse it and close, so no byte
        // after it is read as a request (issue 12, 9).
        if length != nil, headers.keys.contains(where: { $0.lowercased() == "transfer-encoding" }) {
            context.answered = true
            var refusal = HTTPResponse.error(.ambiguousLength)
            refusal.headers["Connection"] = "close"
            return queue(refusal, on: connection)
        }
        let declared = length.flatMap { Int($0.value) }
        if let declared, declared > context.limit {
            context.tooLarge = true
            context.answered = true
            return queue(.error(context.refusal), on: connection)
        }
        return .YES
    }
    let context = Unmanaged<MicroHTTPRequestContext>.fromOpaque(stored).takeUnretainedValue()

    // Called again after the connection resumed: the core's answer is ready.
    if let pending = context.pending {
        guard let answer = pending.takeAnswer() else { return .YES }
        return queue(answer, on: connection)
    }

    // Middle calls: body chunks. A body (chunked, so undeclared) that passes the limit gets 413
    // at once and the connection closes, instead of being read and discarded for as long as it
    // comes. MHD refuses to queue a response in the middle of a body, so the 413 is written to
    // the socket here (MHD writes nothing on it while it reads a body), and returning NO makes
    // MHD close the connection without reading more.
    let chunk = uploadDataSize.pointee
    if chunk > 0 {
        uploadDataSize.pointee = 0
        if context.answered { return .YES }
        if context.body.count + chunk > context.limit {
            context.tooLarge = true
            context.answered = true
            context.body = Data()
            if let watched = watchedConnection(connection) { host.watch.requestArrived(watched) }
            writeDirectly(.error(context.refusal), reason: "Payload Too Large", on: connection, tls: host.usesTLS)
            return .NO
        }
        // A long upload body earns time as it arrives (see UploadSettings.slowestChunkRate).
        if let rate = context.creditRate, let watched = watchedConnection(connection) {
            host.watch.bodyArrived(watched, credit: .seconds(Double(chunk) / Double(max(1, rate))))
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: chunk) {
                context.body.append($0, count: chunk)
            }
        }
        return .YES
    }

    // Final call: the request arrived whole; hand it to the core and suspend the connection
    // until the answer is ready (a long-poll then holds no thread).
    if context.answered { return .YES }
    context.answered = true
    let watched = watchedConnection(connection)
    if let watched { host.watch.requestArrived(watched) }
    if context.tooLarge { return queue(.error(context.refusal), on: connection) }
    let request = HTTPRequest(
        method: String(cString: method), path: String(cString: url),
        query: collect(connection, kind: .GET_ARGUMENT_KIND),
        headers: context.headers, body: context.body,
        remoteAddress: clientAddress(connection))
    context.body = Data()
    context.headers = [:]
    // Only a read can wait long (a long-poll): its client hanging up cancels it. A write is
    // answered within its commit, and one whose client left is still applied (its resend replays
    // the answer), so it is not watched: two epoll calls fewer on every write.
    let pending = PendingAnswer(
        connection: connection, watched: request.method == "GET" || request.method == "HEAD" ? watched : nil,
        host: host)
    context.pending = pending
    host.inFlight.enter()
    pending.start(request)
    if let answer = pending.suspendUnlessAnswered() { return queue(answer, on: connection) }
    return .YES
}

// MHD_REQUEST_TERMINATED_COMPLETED_OK and MHD_CONNECTION_NOTIFY_STARTED: Swift imports these two
// C enums without their case names.
private let completedOK: UInt32 = 0
private let connectionStarted: UInt32 = 0

func quireRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let requestContext, let stored = requestContext.pointee else { return }
    let host = Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<MicroHTTPRequestContext>.fromOpaque(stored).takeRetainedValue()
    requestContext.pointee = nil
    if let pending = context.pending {
        // Ended before its answer went out (client gone, shutdown): stop the core's work.
        if reason.rawValue != completedOK { pending.cancel() }
        host.inFlight.leave()
    }
    if let connection, let watched = watchedConnection(connection) {
        host.watch.answerSent(watched)
    }
}

/// MHD_OPTION_NOTIFY_CONNECTION: a connection opened or closed. Opened ones join the host's
/// ``ConnectionWatch`` (deadline counting); closed ones leave it before MHD closes their socket.
func quireConnectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let host = Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue()
    if code.rawValue == connectionStarted {
        let watched = host.watch.opened(descriptor: quire_mhd_connection_fd(connection))
        socketContext.pointee = Unmanaged.passRetained(watched).toOpaque()
    } else if let raw = socketContext.pointee {
        let watched = Unmanaged<WatchedConnection>.fromOpaque(raw).takeRetainedValue()
        socketContext.pointee = nil
        host.watch.closed(watched)
    }
}

private func collectValue(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?,
    _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return .YES
}

private func collect(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [String: String] {
    let collector = ValueCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, kind, collectValue, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

private func clientAddress(_ connection: OpaquePointer) -> String {
    guard let address = quire_mhd_client_address(connection) else { return "" }
    var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let length = socklen_t(
        Int32(address.pointee.sa_family) == AF_INET6
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
    let code = getnameinfo(
        address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
    guard code == 0 else { return "" }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Writes `response` whole to the connection with `Connection: close`, bypassing MHD: only for an
/// answer MHD will not queue (in the middle of a request body), just before the handler returns
/// NO and MHD closes the connection. On a TLS connection the bytes go through its GnuTLS session
/// (plain bytes on its socket would be garbage to the client); MHD is inside this handler for the
/// connection, so nothing else uses the session meanwhile.
private func writeDirectly(_ response: HTTPResponse, reason: String, on connection: OpaquePointer, tls: Bool) {
    let descriptor = quire_mhd_connection_fd(connection)
    guard descriptor >= 0 else { return }
    let session = tls ? quire_mhd_tls_session(connection) : nil
    if tls, session == nil { return }
    var head = "HTTP/1.1 \(response.status) \(reason)\r\nConnection: close\r\n"
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
        head += "\(name): \(value)\r\n"
    }
    head += "Content-Length: \(response.body.count)\r\n\r\n"
    let bytes = Data(head.utf8) + response.body
    bytes.withUnsafeBytes { raw in
        var sent = 0
        while sent < raw.count {
            let count =
                if let session {
                    quire_tls_send(session, raw.baseAddress! + sent, raw.count - sent)
                } else {
                    send(descriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                }
            if count <= 0 { return }
            sent += count
        }
    }
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let created: OpaquePointer? = response.body.withUnsafeBytes { bytes in
        // MUST_COPY: MHD keeps its own copy, so the Swift buffer may go away after this call.
        MHD_create_response_from_buffer(
            bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse = created else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(mhdResponse, name, value)
    }
    // Every answer's content type is the one to use: no browser may guess another (issue 12, 9).
    _ = MHD_add_response_header(mhdResponse, "X-Content-Type-Options", "nosniff")
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}

/// libmicrohttpd's unescaping of the path and of each query value, except that a string with an
/// escaped NUL (`%00`) is left escaped: decoded, the NUL would end the C string the core reads,
/// so `/metrics%00.css` was served as `/metrics` and an id or cursor was cut short (issue 12, 9).
/// Left escaped, such a path names no route and such a value is not a valid id or cursor.
func quireUnescape(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?
) -> Int {
    guard let text else { return 0 }
    if strstr(text, "%00") != nil { return strlen(text) }
    return MHD_http_unescape(text)
}
