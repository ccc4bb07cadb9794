import Foundation
import QuireWire
import Synchronization
import Testing

@testable import QuireServer

/// A clock the tests move by hand.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// One in-process server over a SQLite file in a fresh temporary directory, plus request helpers.
/// The directory is removed when the harness goes away.
final class ServerHarness: Sendable {
    let server: NotesServer
    let clock: ManualClock
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let clock = ManualClock()
        self.clock = clock
        server = try NotesServer.sqlite(
            path: directory.appendingPathComponent("server.sqlite").path, now: { clock.now },
            log: { _ in })
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func uuid() -> String { UUID().uuidString.lowercased() }

    // MARK: - Requests

    func put(
        _ id: String, payload: String, base: Int?, token: String, key: String = UUID().uuidString
    ) async -> HTTPResponse {
        let body = WireJSON.encode(PutNoteRequestDTO(payload: payload, baseVersion: base))
        return await server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(id),
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key], body: body))
    }

    func delete(_ id: String, base: Int, token: String, key: String = UUID().uuidString) async
        -> HTTPResponse
    {
        await server.handle(
            HTTPRequest(
                method: "DELETE", path: WireRoutes.note(id), query: ["baseVersion": "\(base)"],
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key]))
    }

    func changesResponse(
        token: String, since: String? = nil, limit: Int? = nil, wait: Int? = nil
    ) async -> HTTPResponse {
        var query: [String: String] = [:]
        if let since { query["since"] = since }
        if let limit { query["limit"] = "\(limit)" }
        if let wait { query["wait"] = "\(wait)" }
        return await server.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, query: query,
                headers: ["Authorization": "Bearer \(token)"]))
    }

    /// One page of the feed; fails the test unless the answer is a 200 page.
    func changes(token: String, since: String? = nil, limit: Int? = nil, wait: Int? = nil)
        async throws -> ChangesPageDTO
    {
        let response = await changesResponse(token: token, since: since, limit: limit, wait: wait)
        try #require(
            response.status == 200, "changes answered \(response.status): \(response.text)")
        return try WireJSON.decoder().decode(ChangesPageDTO.self, from: response.body)
    }

    /// Every change the account has, read page by page from the start: the whole stored state as
    /// the API shows it, for before/after comparisons.
    func everything(token: String) async throws -> [NoteChangeDTO] {
        var all: [NoteChangeDTO] = []
        var page = try await changes(token: token, since: ChangeCursor(seq: 0).text, limit: 500)
        all += page.changes
        while page.hasMore {
            page = try await changes(token: token, since: page.nextCursor, limit: 500)
            all += page.changes
        }
        return all
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The error code of a JSON error answer, or nil.
    var errorCode: String? {
        (try? JSONDecoder().decode(ErrorResponseDTO.self, from: body))?.error.code
    }

    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        try WireJSON.decoder().decode(type, from: body)
    }
}

/// Waits for `condition` to hold, checking it until `timeout` passes; returns whether it held.
func eventually(
    timeout: Duration = .seconds(15), _ condition: @Sendable () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}
