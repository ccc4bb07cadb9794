import Foundation
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 6: on SQLite, note writes that arrive together share one commit, and each is
/// still answered as it would be alone.
struct GroupCommitTests {
    static let writes = 32

    /// A server over a fresh SQLite file, its storage and one account's token.
    private struct Fixture {
        let directory: TemporaryDirectory
        let storage: SQLiteServerStorage
        let server: NotesServer
        let token: String

        init(groupCommit: Bool = true) async throws {
            directory = try TemporaryDirectory(prefix: "quire-group-commit")
            storage = try SQLiteServerStorage(path: directory.path("server.sqlite").path, groupCommit: groupCommit)
            server = NotesServer(storage: storage, configuration: ServerHarness.configuration, log: { _ in })
            token = try await server.createAccount(username: "ann")
        }

        func put(_ id: String, payload: String, key: String = UUID().uuidString) async -> HTTPResponse {
            await server.handle(
                HTTPRequest(
                    method: "PUT", path: WireRoutes.note(id),
                    headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": key],
                    body: WireJSON.encode(PutNoteRequestDTO(payload: payload, baseVersion: nil))))
        }

        /// Sends every (id, payload, key) at once; the answers in the same order, each with
        /// whether its note was committed (seen by another connection) when the answer came.
        func putAll(_ writes: [(id: String, payload: String, key: String)]) async -> [HTTPResponse] {
            await putAllSeeingCommits(writes).map(\.answer)
        }

        func putAllSeeingCommits(_ writes: [(id: String, payload: String, key: String)]) async
            -> [(answer: HTTPResponse, committed: Bool)]
        {
            let path = directory.path("server.sqlite").path
            return await withTaskGroup(of: (Int, HTTPResponse, Bool).self) { group in
                for (index, write) in writes.enumerated() {
                    group.addTask {
                        let answer = await put(write.id, payload: write.payload, key: write.key)
                        let committed =
                            (try? SQLiteConnection(path: path).queryFirst(
                                "SELECT count(*) FROM notes WHERE note_id = ?", write.id
                            ) { $0.int(0) == 1 }) ?? false
                        return (index, answer, committed)
                    }
                }
                var answers = [(answer: HTTPResponse, committed: Bool)?](repeating: nil, count: writes.count)
                for await (index, response, committed) in group { answers[index] = (response, committed) }
                return answers.map { $0! }
            }
        }

        /// The account's whole feed from the start, as a reader's device pulls it.
        func feed() async throws -> [NoteChangeDTO] {
            var changes: [NoteChangeDTO] = []
            var since: String?
            while true {
                var query = ["limit": "100"]
                if let since { query["since"] = since }
                let response = await server.handle(
                    HTTPRequest(
                        method: "GET", path: WireRoutes.changes, query: query,
                        headers: ["Authorization": "Bearer \(token)"]))
                try #require(response.status == 200, "changes answered \(response.status): \(response.text)")
                let page = try WireJSON.decoder().decode(ChangesPageDTO.self, from: response.body)
                changes += page.changes
                since = page.nextCursor
                if !page.hasMore { return changes }
            }
        }
    }

    private static func newWrites(_ count: Int) -> [(id: String, payload: String, key: String)] {
        (0..<count).map { (ServerHarness.uuid(), "payload-\($0)", UUID().uuidString) }
    }

    @Test func concurrentWritesShareCommitsAndEachIsAnsweredAsAlone() async throws {
        let fixture = try await Fixture()
        let writes = Self.newWrites(Self.writes)

        let seen = await fixture.putAllSeeingCommits(writes)
        let answers = seen.map(\.answer)

        // Each write got its own 200 only once it was committed, and every one is in the feed,
        // once, with its own position.
        #expect(answers.map(\.status) == Array(repeating: 200, count: Self.writes))
        #expect(seen.allSatisfy { $0.committed }, "a write was answered before its commit")
        let saved = try answers.map { try $0.decoded(PutNoteResponseDTO.self) }
        #expect(saved.allSatisfy { $0.version == 1 })
        #expect(Set(saved.map(\.cursor)).count == Self.writes, "two writes answered with one position")
        let feed = try await fixture.feed()
        #expect(feed.map(\.id).sorted() == writes.map(\.id).sorted())
        #expect(Set(feed.map(\.payload)) == Set(writes.map(\.payload)))
        // And they shared commits: fewer flushes to disk than writes.
        let commits = await fixture.storage.groupCommits
        #expect(commits < Self.writes, "\(Self.writes) writes took \(commits) commits")
    }

    @Test func withGroupCommitOffEveryWriteCommitsAlone() async throws {
        let fixture = try await Fixture(groupCommit: false)

        let answers = await fixture.putAll(Self.newWrites(8))

        #expect(answers.map(\.status) == Array(repeating: 200, count: 8))
        #expect(await fixture.storage.groupCommits == 8)
    }

    @Test func aWriteThatFailsInsideItsGroupFailsAlone() async throws {
        let fixture = try await Fixture()
        // A trigger, set from a second connection, makes the store refuse exactly one payload.
        let other = try SQLiteConnection(path: fixture.directory.path("server.sqlite").path)
        try other.execute(
            """
            CREATE TRIGGER poison BEFORE INSERT ON notes WHEN NEW.payload = 'poison'
            BEGIN SELECT RAISE(ABORT, 'poisoned for the test'); END
            """)
        var writes = Self.newWrites(Self.writes)
        writes[Self.writes / 2].payload = "poison"

        let answers = await fixture.putAll(writes)

        // The poisoned write failed; every other one was stored and answered.
        #expect(answers[Self.writes / 2].status == 500)
        let others = answers.enumerated().filter { $0.offset != Self.writes / 2 }.map(\.element.status)
        #expect(others == Array(repeating: 200, count: Self.writes - 1))
        let feed = try await fixture.feed()
        #expect(feed.count == Self.writes - 1)
        #expect(!feed.contains { $0.payload == "poison" })
        let commits = await fixture.storage.groupCommits
        #expect(commits < Self.writes - 1, "the writes never shared a commit (\(commits) commits)")
    }

    @Test func aResendInTheSameGroupIsReplayedByteForByte() async throws {
        let fixture = try await Fixture()
        let first = Self.newWrites(Self.writes / 2)
        // Every write sent twice at once, with the same key and body.
        let answers = await fixture.putAll(first + first)

        #expect(answers.allSatisfy { $0.status == 200 })
        for index in first.indices {
            let (one, two) = (answers[index], answers[index + first.count])
            #expect(one.body == two.body, "a resend was answered differently")
            let replays = [one, two].filter { $0.header("Idempotent-Replayed") == "true" }.count
            #expect(replays == 1, "a write and its resend: \(replays) replays")
        }
        #expect(try await fixture.feed().count == first.count)
    }
}
