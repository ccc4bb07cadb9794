import Foundation
import QuireWire
import Synchronization
import Testing

@testable import QuireServer

/// Issue 13 part 3: a reader following the feed from its cursor while eight writers save to the
/// same account sees every accepted change exactly once. On PostgreSQL the writers go through
/// two server instances on one database, and so does the reader; a feed numbered at insert
/// rather than in commit order would let a change commit below the reader's cursor, unseen.
struct FeedUnderConcurrentWritersTests {
    static let writers = 8
    static let notesPerWriter = 15

    @Test(arguments: StoreKind.allCases)
    func aReaderFollowingTheFeedSeesEveryAcceptedChangeExactlyOnce(store: StoreKind) async throws {
        // Given one account, its writers and a reader (another device), on one or two instances.
        let harness = try await ServerHarness(store: store)
        let instances = [harness.server] + (store == .postgres ? [try await harness.secondInstance()] : [])
        let writerToken = try await harness.token("ann")
        let readerToken = try await harness.session("ann", device: "reader").accessToken
        let done = Atomic(false)

        // When the writers each create notes while the reader pulls from its cursor.
        async let seen = Self.follow(instances, token: readerToken, until: done)
        let accepted = try await withThrowingTaskGroup(of: [String].self) { group in
            for writer in 0..<Self.writers {
                group.addTask {
                    var mine: [String] = []
                    for index in 0..<Self.notesPerWriter {
                        let server = instances[(writer + index) % instances.count]
                        let id = ServerHarness.uuid()
                        let response = await Self.put(server, id, token: writerToken)
                        try #require(response.status == 200, "PUT answered \(response.status)")
                        mine.append(id)
                    }
                    return mine
                }
            }
            var all: [String] = []
            for try await ids in group { all += ids }
            return all
        }
        done.store(true, ordering: .sequentiallyConsistent)

        // Then every accepted note reached the reader once, and nothing else did.
        let changes = try await seen
        #expect(accepted.count == Self.writers * Self.notesPerWriter)
        #expect(changes.count == accepted.count, "the reader saw \(changes.count) changes")
        let missed = Set(accepted).subtracting(changes)
        #expect(missed.isEmpty, "the reader never saw \(missed.count) accepted notes")
        #expect(Set(changes).isSubset(of: accepted))
    }

    /// Pulls page after page from the feed's start until `done` is set and a pull after it finds
    /// nothing more; returns the ids of every change in the order seen.
    private static func follow(_ instances: [NotesServer], token: String, until done: borrowing Atomic<Bool>)
        async throws -> [String]
    {
        var cursor = ChangeCursor(seq: 0).plainText
        var seen: [String] = []
        var pull = 0
        while true {
            let finished = done.load(ordering: .sequentiallyConsistent)
            let response = await instances[pull % instances.count].handle(
                HTTPRequest(
                    method: "GET", path: WireRoutes.changes, query: ["since": cursor, "limit": "7"],
                    headers: ["Authorization": "Bearer \(token)"]))
            pull += 1
            try #require(response.status == 200, "changes answered \(response.status): \(response.text)")
            let page = try WireJSON.decoder().decode(ChangesPageDTO.self, from: response.body)
            seen += page.changes.map(\.id)
            cursor = page.nextCursor
            if finished, !page.hasMore { return seen }
            if page.changes.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    private static func put(_ server: NotesServer, _ id: String, token: String) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(id),
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": UUID().uuidString],
                body: WireJSON.encode(PutNoteRequestDTO(payload: "p", baseVersion: nil, baseVersionTag: nil))))
    }
}
