import Foundation
import QuireLock
import Testing

@testable import QuireServer

/// The SQLite store keeps the sessions it read (``SessionCache``) and never answers one the
/// writer changed: a revoked session is refused from the commit that revokes it, even while
/// lookups of it run all the time, and a restore that empties the sessions table drops them all.
struct SessionCacheTests {
    // MARK: - The cache on its own

    @Test func aReadThatBeganBeforeAChangeIsNotKept() {
        let cache = SessionCache()
        let session = AuthenticatedSession(
            session: SessionID(1), account: AccountID(1), accessExpiresAt: Date(timeIntervalSince1970: 100))
        let before = try! #require(cache.generation)
        cache.sessionsChanging()
        #expect(cache.generation == nil, "nothing read while a change is in flight may be kept")
        cache.keep(session, accessHash: "a", readIn: before)
        cache.committed()
        cache.keep(session, accessHash: "a", readIn: before)
        #expect(cache.session(accessHash: "a") == nil)

        let now = try! #require(cache.generation)
        cache.keep(session, accessHash: "a", readIn: now)
        #expect(cache.session(accessHash: "a") == session)
        cache.sessionsChanging()
        #expect(cache.session(accessHash: "a") == nil)
    }

    @Test func aCommitWithNoSessionChangeKeepsWhatIsKept() {
        let cache = SessionCache()
        let session = AuthenticatedSession(
            session: SessionID(1), account: AccountID(1), accessExpiresAt: Date(timeIntervalSince1970: 100))
        cache.keep(session, accessHash: "a", readIn: try! #require(cache.generation))
        cache.committed()
        #expect(cache.session(accessHash: "a") == session)
    }

    @Test func aFullCacheStartsOver() {
        let cache = SessionCache(capacity: 3)
        for index in 0..<7 {
            let session = AuthenticatedSession(
                session: SessionID(Int64(index)), account: AccountID(1), accessExpiresAt: .distantFuture)
            cache.keep(session, accessHash: "\(index)", readIn: try! #require(cache.generation))
            #expect(cache.count <= 3)
        }
        #expect(cache.session(accessHash: "6") != nil)
    }

    // MARK: - The store

    private static func store() throws -> (SQLiteServerStorage, NotesServer, URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-session-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = try SQLiteServerStorage(path: directory.appendingPathComponent("server.sqlite").path)
        let server = NotesServer(storage: storage, configuration: ServerHarness.configuration, log: { _ in })
        return (storage, server, directory)
    }

    /// A store with one account whose session was read once (so it is kept), and its token's
    /// hash.
    private static func storeWithAKeptSession() async throws -> (SQLiteServerStorage, hash: String, URL) {
        let (storage, server, directory) = try store()
        let hash = NotesServer.tokenHash(try await server.createAccount(username: "alice"))
        #expect(try await storage.session(accessHash: hash) != nil)
        return (storage, hash, directory)
    }

    @Test func aSessionReadOnceIsAnsweredFromMemory() async throws {
        let (storage, hash, directory) = try await Self.storeWithAKeptSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(storage.sessionCache?.count == 1)
        #expect(try await storage.session(accessHash: hash) != nil)
        #expect(storage.sessionCache?.count == 1)
        await storage.close()
    }

    /// Lookups of one session run without pause on four tasks while the session is revoked: no
    /// lookup that starts after the revocation returned may find it. 40 rounds, each a new
    /// session. (With the cache not told of changes, every round finds it. A read that began
    /// before a change is ``aReadThatBeganBeforeAChangeIsNotKept()``'s, where the order is exact.)
    @Test func aRevokedSessionIsRefusedFromItsCommitWhileLookupsRun() async throws {
        let (storage, server, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await server.createAccount(username: "alice")
        for round in 0..<40 {
            let token = try await server.openSession(username: "alice", deviceName: "round \(round)")
            let hash = NotesServer.tokenHash(token)
            let session = try #require(try await storage.session(accessHash: hash))
            let revoked = Locked(false)
            let stale = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var stale = 0
                        while true {
                            let revokedBefore = revoked.withLock { $0 }
                            let found = try? await storage.session(accessHash: hash)
                            if revokedBefore {
                                if found != nil { stale += 1 }
                                return stale
                            }
                            // A kept session is answered without suspending: let the
                            // revocation have a thread of the pool.
                            await Task.yield()
                        }
                    }
                }
                group.addTask {
                    try? await storage.revokeSession(session.session)
                    revoked.withLock { $0 = true }
                    return 0
                }
                return await group.reduce(0, +)
            }
            #expect(stale == 0, "round \(round): \(stale) lookups after the revocation found the session")
            #expect(try await storage.session(accessHash: hash) == nil)
        }
        await storage.close()
    }

    @Test func aRestoreThatEmptiesTheSessionsDropsTheKeptOnes() async throws {
        let (storage, hash, directory) = try await Self.storeWithAKeptSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A backup from before any account: restoring it empties `sessions` with a DELETE
        // without WHERE, and inserts no session.
        let empty = try SQLiteServerStorage(path: directory.appendingPathComponent("empty.sqlite").path)
        let backup = directory.appendingPathComponent("backup.sqlite").path
        try await empty.backUp(to: backup)
        await empty.close()

        try await storage.restore(fromBackupAt: backup)

        #expect(try await storage.session(accessHash: hash) == nil)
        await storage.close()
    }

    @Test func aClosedStoreAnswersNoSessionFromMemory() async throws {
        let (storage, hash, directory) = try await Self.storeWithAKeptSession()
        defer { try? FileManager.default.removeItem(at: directory) }
        await storage.close()
        await #expect(throws: ServerStorageError.self) { try await storage.session(accessHash: hash) }
    }
}
