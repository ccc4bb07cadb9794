import Foundation
import QuireClient
import QuireDomain
import QuireServer
import QuireWire

/// A real sync server for the benchmarks: the `NotesServer` core on a SQLite file (full durability,
/// as shipped) behind the libmicrohttpd host on `127.0.0.1:0`, inside the bench process.
///
/// One account; notes are sealed with ``BenchCodec`` (the client's sealed codec).
final class BenchServer: Sendable {
    let host: MicroHTTPServer
    let storage: SQLiteServerStorage
    let token: String
    let username: String
    let codec: BenchCodec

    var core: NotesServer { host.core }
    var baseURL: URL { host.baseURL }

    /// A quota no load run reaches (a run at 10,000 PUT/s writes over the default 100,000 notes
    /// into its one account) but which the server still checks on every write, as it does with
    /// its default: `NoteQuota.unlimited` skips the count.
    static let loadQuota = NoteQuota(maxNotes: 100_000_000, maxBytes: 1 << 42)

    /// Starts a server whose database lives in `directory`. Throws when the file or port fails.
    /// `groupCommit` false commits each note write on its own, as before issue 13's part 6;
    /// `quota` is the account's (the server's default unless a benchmark writes more notes).
    init(directory: URL, codec: BenchCodec, groupCommit: Bool = true, quota: NoteQuota = NoteQuota()) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = try SQLiteServerStorage(
            path: directory.appendingPathComponent("server.sqlite").path, groupCommit: groupCommit)
        self.storage = storage
        var configuration = NotesServerConfiguration()
        configuration.noteQuota = quota
        let core = NotesServer(storage: storage, configuration: configuration, log: { _ in })
        host = try MicroHTTPServer(core: core, host: "127.0.0.1", port: 0)
        (username, token) = try await BenchAccount.make(server: core)
        self.codec = codec
    }

    func stop() async {
        await host.stop()
    }

    /// The shared commits the server's SQLite storage has made (``SQLiteServerStorage/groupCommits``).
    var groupCommits: Int {
        get async { await storage.groupCommits }
    }

    /// An API client for this server over real loopback HTTP.
    func apiClient(transport: HTTPTransport? = nil) -> NotesAPIClient {
        NotesAPIClient(
            transport: transport ?? LiveTransport.make(baseURL: baseURL),
            tokens: StaticTokenProvider(token: token))
    }

    /// An API client for another device of the account: its own session, as after its own sign-in
    /// (the feed spares a session its own writes, so two devices must not share one).
    func deviceClient(_ name: String) async throws -> NotesAPIClient {
        let token = try await core.openSession(username: username, deviceName: name)
        return NotesAPIClient(
            transport: LiveTransport.make(baseURL: baseURL), tokens: StaticTokenProvider(token: token))
    }

    /// Stores `count` corpus notes (sealed, as new notes) straight through the handler core, a few
    /// at a time: the same storage path as a PUT over HTTP, without the sockets. Returns the ids
    /// and the total sealed payload bytes.
    func seed(count: Int, corpus: NoteCorpus) async throws -> (ids: [NoteID], payloadBytes: Int) {
        var ids: [NoteID] = []
        var payloadBytes = 0
        let lanes = 4
        var next = 0
        try await withThrowingTaskGroup(of: (NoteID, Int).self) { group in
            func addOne() throws {
                let index = next
                next += 1
                let id = NoteID()
                let text = corpus.note(index)
                let payload = try codec.seal(NoteContent(title: text.title, body: text.body), noteID: id)
                let request = putRequest(id: id, payload: payload)
                group.addTask {
                    let response = await self.core.handle(request)
                    guard response.status == 200 else {
                        throw BenchFailure("seeding got HTTP \(response.status)")
                    }
                    return (id, payload.utf8.count)
                }
            }
            while next < min(lanes, count) { try addOne() }
            while let (id, bytes) = try await group.next() {
                ids.append(id)
                payloadBytes += bytes
                if next < count { try addOne() }
            }
        }
        return (ids, payloadBytes)
    }

    private func putRequest(id: NoteID, payload: String) -> HTTPRequest {
        HTTPRequest(
            method: "PUT", path: WireRoutes.note(id.description), query: [:],
            headers: [
                "Authorization": "Bearer \(token)", "Content-Type": "application/json",
                WireRoutes.idempotencyKeyHeader: UUID().uuidString,
            ],
            body: WireJSON.encode(PutNoteRequestDTO(payload: payload, baseVersion: nil)),
            remoteAddress: "127.0.0.1")
    }
}

/// A benchmark that could not do its work; the message says why.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
