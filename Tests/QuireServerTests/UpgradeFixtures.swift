import QuirePostgres
import QuireSQLite
import QuireTestSupport

@testable import QuireServer

/// What the upgrade tests write into an older schema before the server migrates it.
extension SQLiteConnection {
    /// Account 1, `ada`, with placeholder credentials: the account of the sessions an upgrade
    /// test writes into an older schema.
    func insertAccountAda() throws {
        try run(
            """
            INSERT INTO accounts (id, username, created_at, public_id, auth_key_hash, auth_salt,
                auth_iterations, kdf_salt, kdf_iterations, wrapped_notes_key)
            VALUES (1, 'ada', 0, 'p', x'00', x'00', 1000, x'00', 1000, x'00')
            """)
    }
}

extension SQLiteConnection {
    /// A new SQLite file in `directory` with the store's first `count` migrations applied and
    /// account 1 (`ada`) in it, as a server of that release left it: the connection, and the
    /// file's path for the storage that upgrades it.
    static func migratedWithAda(in directory: TemporaryDirectory, through count: Int) throws -> (
        db: SQLiteConnection, path: String
    ) {
        let path = directory.path("v\(count).sqlite").path
        let db = try SQLiteConnection(path: path)
        try SQLiteMigrator(Array(SQLiteServerStorage.migrator.migrations.prefix(count))).migrate(db)
        try db.insertAccountAda()
        return (db, path)
    }
}

extension PostgresConnection {
    /// A connection to the database at `connectionString` with the store's first `count`
    /// migrations applied and recorded, as a server of that release left it.
    static func migrated(_ connectionString: String, through count: Int) throws -> PostgresConnection {
        let db = try PostgresConnection(connectionString)
        try db.execute(
            "CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for (index, migration) in PostgresServerStorage.migrations.prefix(count).enumerated() {
            try migration(db)
            try db.query("INSERT INTO schema_migrations (version) VALUES ($1)", index + 1)
        }
        return db
    }

    /// Account 1, `ada`, as ``SQLiteConnection/insertAccountAda()``.
    func insertAccountAda() throws {
        try query(
            """
            INSERT INTO accounts (id, username, public_id, created_at, auth_key_hash, auth_salt,
                auth_iterations, kdf_salt, kdf_iterations, wrapped_notes_key)
            VALUES (1, 'ada', 'p', 0, '\\x00', '\\x00', 1000, '\\x00', 1000, '\\x00')
            """)
    }
}
