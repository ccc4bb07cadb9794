import Foundation
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 6: the SQLite writer's log writes are gathered (one system call for many
/// frames), and nothing answered is left behind in the gathering buffer.
struct SQLiteWALBufferTests {
    static let writes = 24

    /// `count` PUTs of new 1.4 KB notes at once; their answers.
    static func putConcurrently(_ count: Int, server: NotesServer, token: String) async -> [HTTPResponse] {
        await withTaskGroup(of: HTTPResponse.self) { group in
            for index in 0..<count {
                group.addTask {
                    await server.handle(
                        HTTPRequest(
                            method: "PUT", path: WireRoutes.note(ServerHarness.uuid()),
                            headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": UUID().uuidString],
                            body: WireJSON.encode(
                                PutNoteRequestDTO(
                                    payload: String(repeating: "p\(index)", count: 700), baseVersion: nil))))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func theLogsWritesReachTheKernelGathered() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-wal-buffer")
        let storage = try SQLiteServerStorage(path: directory.path("server.sqlite").path)
        let server = NotesServer(storage: storage, configuration: ServerHarness.configuration, log: { _ in })
        let token = try await server.createAccount(username: "ann")

        let answers = await Self.putConcurrently(Self.writes, server: server, token: token)

        #expect(answers.map(\.status) == Array(repeating: 200, count: Self.writes))
        let counts = try #require(await storage.walWriteCounts, "the writer's log is not gathered")
        // Two writes a frame from SQLite; at most one a commit (of up to 30 frames) to the kernel.
        #expect(counts.made * 4 < counts.asked, "\(counts.asked) log writes became \(counts.made)")
    }

    @Test func everyAnsweredWriteIsInTheFilesOnDisk() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-wal-buffer")
        let path = directory.path("server.sqlite").path
        let storage = try SQLiteServerStorage(path: path)
        let server = NotesServer(storage: storage, configuration: ServerHarness.configuration, log: { _ in })
        let token = try await server.createAccount(username: "ann")

        let answers = await Self.putConcurrently(Self.writes, server: server, token: token)

        // What a crash right after the answers would leave: the database and its log as the
        // kernel holds them (no shared-memory index; the copy recovers from the log alone).
        #expect(answers.map(\.status) == Array(repeating: 200, count: Self.writes))
        let copy = directory.path("copy")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy.path + "/server.sqlite" + suffix)
        }
        let recovered = try SQLiteConnection(path: copy.path + "/server.sqlite")
        let notes = try recovered.queryFirst("SELECT count(*) FROM notes") { $0.int(0) }
        #expect(notes == Self.writes, "\(Self.writes) writes answered, \(notes ?? 0) on disk")
        _ = storage
    }
}
