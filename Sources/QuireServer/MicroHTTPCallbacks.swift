import CMicroHTTPD
import Dispatch
import Foundation
import QuireWire

// libmicrohttpd's callbacks. They are plain global functions, not closures, and live outside
// `main.swift`: a closure there would be MainActor-isolated and trap on an MHD thread (PLATFORM.md).

/// What every callback of one daemon shares: the core to hand requests to, and the requests in
/// flight (entered when a request's headers arrive, left when MHD reports it completed), so a stop
/// can let answers finish sending before it closes the sockets.
final class MicroHTTPHostContext: Sendable {
    let core: NotesServer
    let inFlight = DispatchGroup()

    init(core: NotesServer) {
        self.core = core
    }
}

/// One request's state across the access handler's calls: its body so far. Touched only by the
/// connection's own thread, one call at a time.
final class MicroHTTPRequestContext {
    var body = Data()
    var tooLarge = false
    var answered = false
}

/// The response a handler task hands back to its blocked MHD thread.
///
/// `@unchecked Sendable`: written once by the task before `done.signal()`, read by the thread only
/// after `done.wait()`, so the semaphore orders the two accesses.
private final class ResponseSlot: @unchecked Sendable {
    var response = HTTPResponse(status: 500)
    let done = DispatchSemaphore(value: 0)
}

/// Gathers header or query values into a `[String: String]` box.
private final class ValueCollector {
    var values: [String: String] = [:]
}

func quireAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let url, let method, let uploadDataSize, let requestContext
    else { return .NO }
    let limit = WireRoutes.maxBodyBytes

    // First call: headers only. Refuse a declared oversize body before reading any of it.
    guard let stored = requestContext.pointee else {
        let context = MicroHTTPRequestContext()
        Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue().inFlight.enter()
        requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
        let headers = collect(connection, kind: .HEADER_KIND)
        let declared = headers.first { $0.key.lowercased() == "content-length" }.flatMap {
            Int($0.value)
        }
        if let declared, declared > limit {
            context.tooLarge = true
            context.answered = true
            return queue(.error(.payloadTooLarge), on: connection)
        }
        return .YES
    }
    let context = Unmanaged<MicroHTTPRequestContext>.fromOpaque(stored).takeUnretainedValue()

    // Middle calls: body chunks. Stop keeping bytes once over the limit; answer at the end.
    let chunk = uploadDataSize.pointee
    if chunk > 0 {
        if !context.tooLarge, let uploadData {
            if context.body.count + chunk > limit {
                context.tooLarge = true
                context.body = Data()
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: chunk) {
                    context.body.append($0, count: chunk)
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    // Final call: hand the whole request to the core.
    if context.answered { return .YES }
    context.answered = true
    if context.tooLarge { return queue(.error(.payloadTooLarge), on: connection) }
    let request = HTTPRequest(
        method: String(cString: method), path: String(cString: url),
        query: collect(connection, kind: .GET_ARGUMENT_KIND),
        headers: collect(connection, kind: .HEADER_KIND), body: context.body,
        remoteAddress: clientAddress(connection))
    context.body = Data()
    let host = Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue()
    let slot = ResponseSlot()
    // This is an MHD connection thread, not a Swift concurrency thread: blocking it is safe and
    // holds only this connection.
    Task {
        slot.response = await host.core.handle(request)
        slot.done.signal()
    }
    slot.done.wait()
    return queue(slot.response, on: connection)
}

func quireRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    guard let cls, let requestContext, let stored = requestContext.pointee else { return }
    Unmanaged<MicroHTTPRequestContext>.fromOpaque(stored).release()
    requestContext.pointee = nil
    Unmanaged<MicroHTTPHostContext>.fromOpaque(cls).takeUnretainedValue().inFlight.leave()
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
    return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
}
