import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import QuireWire
import Synchronization
import Testing

/// Promises 1 and 3 on the server: `quire-server` SIGKILLed during a burst of PUTs keeps every
/// write it acknowledged, and a replay of every PUT with its change id applies none twice.
@Suite struct KilledServerTests {
    /// How many writes of a burst are in flight at once.
    static let inFlight = 16

    /// One PUT of a new note, as a client would resend it: same note, change id and payload.
    struct Write: Sendable {
        var id = NoteID()
        var change = ChangeID()
        var payload: String

        init(_ label: String) throws {
            payload = try PlainPayloadCodec().seal(
                NoteContent(title: "T \(label)", body: "B \(label)"), noteID: id)
        }
    }

    /// Acknowledged writes (note id → version), and the moment to pull the plug.
    final class Acknowledgements: Sendable {
        private let state = Mutex<[NoteID: Int]>([:])
        let killAt: Int

        init(killAt: Int) { self.killAt = killAt }

        /// Records an acknowledged write; true for exactly the write that reaches `killAt`.
        func record(_ id: NoteID, version: Int) -> Bool {
            state.withLock { acknowledged in
                acknowledged[id] = version
                return acknowledged.count == killAt
            }
        }

        var all: [NoteID: Int] { state.withLock { $0 } }
    }

    @Test func acknowledgedWritesSurviveAKillAndReplaysCreateNoDuplicates() async throws {
        var random = CrashRandom()
        let rerun = random.rerun
        let root = try TemporaryDirectory(prefix: "quire-crash-server")
        defer { root.remove() }
        let database = root.path("server.sqlite")
        var server = try await ServerProcess.start(databaseFile: database)
        defer { server.terminate() }
        let account = try await CrashAccounts.make(server: server)
        let token = account.token

        var everything: [Write] = []
        var killedWithUnacknowledged = 0
        let cycles = 10
        var committedUnanswered = 0
        for cycle in 0..<cycles {
            // Given: a burst of new notes, the server killed once a random number were acknowledged.
            let burst = try (0..<120).map { try Write("c\(cycle) n\($0)") }
            let acknowledgements = Acknowledgements(killAt: Int.random(in: 1...100, using: &random))
            let api = ServerFeed.client(server.url, token: token)
            let victim = server
            // A window of writes in flight, as devices send them: with every write of the burst
            // sent at once, group commit answered all 120 together, before the kill could land
            // (no kill cut a burst in 1 full run of 2 once PUTs got cheaper).
            await withTaskGroup(of: Void.self) { group in
                var waiting = burst.makeIterator()
                func send(_ write: Write) {
                    group.addTask {
                        // No answer (the server is gone) means not acknowledged.
                        guard
                            case .accepted(let version?, _, _, _) = try? await api.put(
                                write.id, payload: write.payload, baseVersion: nil, change: write.change)
                        else { return }
                        if acknowledgements.record(write.id, version: version) { await victim.kill9() }
                    }
                }
                for _ in 0..<Self.inFlight { waiting.next().map(send) }
                while await group.next() != nil { waiting.next().map(send) }
            }
            #expect(!server.isRunning, "the server was never killed; \(rerun)")
            let acknowledged = acknowledgements.all
            if acknowledged.count < burst.count { killedWithUnacknowledged += 1 }
            everything += burst

            // When: it restarts on the same database file.
            server = try await ServerProcess.start(databaseFile: database)
            let restarted = ServerFeed.client(server.url, token: account.readerToken)
            let writer = ServerFeed.client(server.url, token: token)

            // Then: every acknowledged write is there, at the version it was acknowledged with.
            let feed = Dictionary(
                try await ServerFeed.all(restarted).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for write in burst {
                guard let version = acknowledged[write.id] else {
                    // Applied, but the answer died with the server: the replay below must get it.
                    if feed[write.id.description] != nil { committedUnanswered += 1 }
                    continue
                }
                let stored = feed[write.id.description]
                #expect(stored?.version == version, "acknowledged \(write.id) lost; \(rerun)")
                #expect(stored?.payload == write.payload, "\(rerun)")
            }

            // And replaying every PUT with its change id gets the first answer or creates it once.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for write in burst {
                    group.addTask {
                        let outcome = try await writer.put(
                            write.id, payload: write.payload, baseVersion: nil, change: write.change)
                        guard case .accepted(let version, _, _, _) = outcome else {
                            Issue.record("\(write.id) answered \(outcome); \(rerun)")
                            return
                        }
                        #expect(version == (acknowledged[write.id] ?? 1), "\(write.id); \(rerun)")
                    }
                }
                try await group.waitForAll()
            }
        }

        // Finally: the feed holds each note exactly once, at version 1, with its payload.
        let feed = try await ServerFeed.all(ServerFeed.client(server.url, token: account.readerToken))
        #expect(feed.count == everything.count, "\(rerun)")
        let byID = Dictionary(grouping: feed, by: \.id)
        for write in everything {
            let copies = byID[write.id.description] ?? []
            #expect(copies.count == 1, "\(write.id) \(copies.count) times; \(rerun)")
            #expect(copies.allSatisfy { $0.version == 1 && $0.payload == write.payload }, "\(rerun)")
        }
        #expect(killedWithUnacknowledged > 0, "no kill left a write unacknowledged; \(rerun)")
        print(
            "KilledServerTests: \(cycles) kills, \(killedWithUnacknowledged) with writes unanswered, "
                + "\(committedUnanswered) writes applied but unanswered; seed \(random.seed)")
    }
}
