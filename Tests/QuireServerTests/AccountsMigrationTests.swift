import Foundation
import QuireSQLite
import QuireWire
import Testing

@testable import QuireServer

/// Migration 2 on a database made before accounts had credentials (`add-account` tokens).
struct AccountsMigrationTests {
    let directory: URL
    let path: String

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-server-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("server.sqlite").path
        let db = try SQLiteConnection(path: path)
        let first = try #require(SQLiteServerStorage.migrator.migrations.first)
        try SQLiteMigrator([first]).migrate(db)
        try db.run("INSERT INTO accounts (id, username, created_at) VALUES (1, 'old', 0)")
        try db.run(
            "INSERT INTO access_tokens (token_hash, account_id, created_at) VALUES (?, 1, 0)",
            NotesServer.tokenHash("legacy-token"))
        try db.run(
            """
            INSERT INTO notes (account_id, note_id, version, payload, updated_at, seq)
            VALUES (1, 'n', 1, 'kept', 0, 1)
            """)
    }

    @Test func oldTokensStopWorkingAndOldAccountsCannotSignIn() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try NotesServer.sqlite(
            path: path, configuration: ServerHarness.configuration, log: { _ in })
        let changes = await server.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes,
                headers: ["Authorization": "Bearer legacy-token"]))
        let signIn = await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.sessions,
                body: WireJSON.encode(
                    CreateSessionRequestDTO(
                        username: "old", authKey: Data(count: 32).base64EncodedString(),
                        deviceName: "d"))))
        let register = await server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.accounts,
                body: WireJSON.encode(ServerHarness.registration("old"))))
        let kdf = try await server.handle(
            HTTPRequest(method: "GET", path: WireRoutes.kdf("old"))
        ).decoded(KDFParametersDTO.self)
        await server.shutDown()

        #expect(changes.errorCode == "unauthorized")
        #expect(signIn.errorCode == "invalid_credentials")
        #expect(register.errorCode == "username_taken")
        #expect(kdf.iterations == 600_000)
        let db = try SQLiteConnection(path: path)
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table'") {
            $0.text(0)
        }
        #expect(!tables.contains("access_tokens"))
        #expect(
            try db.queryFirst("SELECT payload FROM notes WHERE account_id = 1") { $0.text(0) }
                == "kept")
        let publicID = try db.queryFirst("SELECT public_id FROM accounts WHERE id = 1") {
            $0.text(0)
        }
        #expect(publicID.flatMap { UUID(uuidString: $0) } != nil)
    }
}
