import Foundation
import QuireClient
import QuireCrypto
import QuireDomain
import QuireServer
import QuireTestSupport
import Testing

/// Issue 4 end to end in process: real accounts on the real server core, sealed payloads, token
/// refresh, and a payload nobody on this account can open.
@Suite struct EncryptedSyncTests {
    /// A server clock the test moves by hand.
    final class ServerClock: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var current = Date(timeIntervalSince1970: 1_800_000_000)
        var now: Date { lock.withLock { current } }
        func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    @Test func anExpiredAccessTokenIsRefreshedAndTheSyncGoesOnUnnoticed() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clock = ServerClock()
        let server = try NotesServer.sqlite(
            path: directory.path("server.sqlite").path,
            configuration: NotesServerConfiguration(accessTokenTTL: 900, authHashIterations: 1_000),
            now: { clock.now }, log: { _ in })
        let transport = InProcessTransport(server: server)
        let url = URL(string: "http://in-process")!
        let session = try await AccountFlows.register(
            serverURL: url, username: "ann", password: "maple orbit lantern", deviceName: "phone", transport: transport,
            iterations: 100_000
        ).session
        let store = InMemoryCredentialStore(session)
        // The device's own clock never moves, so it does not refresh early: it meets the 401.
        let tokens = SessionTokenProvider(
            store: store, accounts: AccountsAPIClient(transport: transport),
            now: { session.accessTokenExpiresAt! - 600 })
        let database = try NotesDatabase(fileURL: directory.path("phone/notes.sqlite"))
        let engine = NotesSyncEngine(
            records: database, api: NotesAPIClient(transport: transport, tokens: tokens),
            codec: SealedPayloadCodec(notesKey: try session.notesKeyValue(), account: session.account),
            account: session.databaseAccount)
        try await database.saveNote(id: NoteID(), title: "Before", body: "x")
        #expect(await engine.syncOnce().succeeded)

        clock.advance(by: 901)  // the access token has expired on the server
        try await database.saveNote(id: NoteID(), title: "After", body: "y")
        let report = await engine.syncOnce()

        #expect(report.succeeded)
        #expect(report.pushed == 1)
        let stored = try #require(try store.load())
        #expect(stored.accessToken != session.accessToken)
        #expect(stored.refreshToken != session.refreshToken)
    }

    @Test func aPayloadThatCannotBeOpenedIsSkippedCountedAndTheRestSyncs() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        // A writer with another key: to this account its payload is corrupt.
        let stranger = try await cluster.addDevice(
            "stranger", codec: SealedPayloadCodec(notesKey: .random(), account: AccountID("cluster")))
        try await phone.create(title: "One", body: "1")
        try await phone.create(title: "Two", body: "2")
        try await stranger.create(title: "Garbled", body: "?")
        await phone.sync()
        await stranger.sync()

        let report = await laptop.sync()

        #expect(report.succeeded)
        #expect(report.undecryptable == 1)
        #expect(Set(await laptop.all().map(\.title)) == ["One", "Two"])
        let status = try await laptop.database.runRecord()
        #expect(status.undecryptableCount == 1)
        #expect(!status.lastRunFailed)
        // The next sync does not count it again, and nothing stops.
        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.database.runRecord().undecryptableCount == 1)
    }

    @Test func aPayloadMovedToAnotherNoteDoesNotOpen() async throws {
        let key = SymmetricKey256.random()
        let codec = SealedPayloadCodec(notesKey: key, account: AccountID("acct"))
        let payload = try codec.seal(NoteContent(title: "Secret", body: "text"), noteID: NoteID())
        #expect(throws: PayloadError.self) { try codec.open(payload, noteID: NoteID()) }
    }
}
