import Dispatch
import Foundation
import QuireCrypto
import QuireLock
import QuireWire

@testable import QuireServer

/// Fuzz target `request`: any request through the server's whole core, `NotesServer.handle`
/// (routing, every `RequestValidation` check, the routes, the SQLite store), as DESIGN.md promise
/// 8 states it: bad input gets a clear 4xx JSON error and the server keeps serving. Checked: no
/// crash, no 5xx (an unexpected error is a 500 `internal_error`, logged), and every error answer
/// (but HEAD's) is the JSON error shape `{"error": {"code", "message"}}`, or for a note write on
/// a stale base the documented 409 `{"note": …}` with the server's copy.
///
/// The input is five fields cut at zero bytes: method, path, query (`a=1&b=2`), header lines
/// (`Name: value`), body. `$TOKEN` in a header becomes the access token of an account the target
/// signs in once at start, so the fuzzer reaches the routes behind authentication; `wait` is
/// dropped from the query, so no input holds a long-poll open. Every body also goes through the
/// direct readers of a batch and of a PUT body, which must read what `JSONDecoder` reads or
/// give up.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let fields = FuzzInput.fields(FuzzInput.bytes(data, size), count: 5)
    let request = RequestFuzzServer.request(from: fields)
    // The direct readers of a batch and of a PUT body read what JSONDecoder reads, or give up.
    if let direct = BatchRequestDTO(directJSON: request.body) {
        FuzzInput.require(
            direct == (try? WireJSON.decoder().decode(BatchRequestDTO.self, from: request.body)),
            "the direct batch reader read otherwise than JSONDecoder: " + FuzzInput.text(Array(request.body)))
    }
    if let direct = RequestValidation.LoosePutBody(directJSON: request.body) {
        FuzzInput.require(
            direct == (try? JSONDecoder().decode(RequestValidation.LoosePutBody.self, from: request.body)),
            "the direct PUT body reader read otherwise than JSONDecoder: " + FuzzInput.text(Array(request.body)))
    }
    let response = RequestFuzzServer.shared.answer(request)
    FuzzInput.require(
        response.status < 500,
        "\(request.method) \(request.path) answered \(response.status): "
            + "\(FuzzInput.text(Array(response.body))) \(RequestFuzzServer.shared.logged())")
    if response.status >= 400, request.method != "HEAD", !RequestFuzzServer.isNoteConflict(response) {
        let error = try? JSONDecoder().decode(ErrorResponseDTO.self, from: response.body)
        FuzzInput.require(
            error.map { !$0.error.code.isEmpty && !$0.error.message.isEmpty } ?? false,
            "\(request.method) \(request.path) answered \(response.status) without the JSON error shape: "
                + FuzzInput.text(Array(response.body)))
    }
    return 0
}

/// One server over a SQLite file in a temporary directory for the whole run, with one account.
final class RequestFuzzServer: Sendable {
    static let shared = RequestFuzzServer()

    let server: NotesServer
    let token: String
    private let lines = Locked<[String]>([])

    private init() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = NotesServerConfiguration(minKDFIterations: 1_000, authHashIterations: 1_000)
        configuration.registrationLimit = RegistrationLimit.Policy(burst: 1_000_000)
        configuration.uploads.blobDirectory = directory.appendingPathComponent("blobs").path
        let lines = self.lines
        do {
            server = try NotesServer.sqlite(
                path: directory.appendingPathComponent("server.sqlite").path, configuration: configuration,
                log: { line in lines.withLock { $0.append(line) } })
        } catch {
            fatalError("fuzz: cannot open the server's store: \(error)")
        }
        let authKey = Data(SHA256Digest.hash(Data("fuzz:right".utf8))).base64EncodedString()
        let account = CreateAccountRequestDTO(
            username: "fuzz", authKey: authKey,
            kdf: KDFParametersDTO(salt: Data(repeating: 7, count: 16).base64EncodedString(), iterations: 1_000),
            wrappedNotesKey: Data(repeating: 9, count: 60).base64EncodedString())
        let signIn = CreateSessionRequestDTO(username: "fuzz", authKey: authKey, deviceName: "fuzzer")
        let server = self.server
        let session = Self.blocking {
            _ = await server.handle(
                HTTPRequest(method: "POST", path: WireRoutes.accounts, body: WireJSON.encode(account)))
            return await server.handle(
                HTTPRequest(method: "POST", path: WireRoutes.sessions, body: WireJSON.encode(signIn)))
        }
        guard let dto = try? JSONDecoder().decode(SessionDTO.self, from: session.body) else {
            fatalError("fuzz: cannot sign in: \(session.status) \(String(decoding: session.body, as: UTF8.self))")
        }
        token = dto.accessToken
    }

    /// The server's answer to `request`, waited for on this thread.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        lines.withLock { $0.removeAll() }
        let server = self.server
        return Self.blocking { await server.handle(request) }
    }

    /// A note write's documented conflict: 409 with the server's copy (DESIGN.md, API v1).
    static func isNoteConflict(_ response: HTTPResponse) -> Bool {
        guard response.status == 409,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { return false }
        return object["note"] is [String: Any]
    }

    /// What the server logged while answering the last request.
    func logged() -> String { lines.withLock { $0.joined(separator: "; ") } }

    /// The request the five fields describe.
    static func request(from fields: [[UInt8]]) -> HTTPRequest {
        var query: [String: String] = [:]
        for pair in FuzzInput.text(fields[2]).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        query["wait"] = nil
        var headers: [String: String] = [:]
        for line in FuzzInput.text(fields[3]).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            headers[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "$TOKEN", with: shared.token)
        }
        return HTTPRequest(
            method: FuzzInput.text(fields[0]), path: FuzzInput.text(fields[1]), query: query, headers: headers,
            body: Data(fields[4]), remoteAddress: "127.0.0.1")
    }

    /// Runs `body` on the concurrency pool and waits for it here (libFuzzer calls the target
    /// synchronously on its own thread).
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Locked<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
