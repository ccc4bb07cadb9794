import Foundation
import Testing

@testable import QuireServer

/// The server's database holds every account's token hashes, wrapped keys and ciphertext: only
/// its owner may read it (issue 12, 9: the files were 0644).
struct ServerFilePermissionsTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test func aNewDatabaseAndItsJournalFilesAreTheOwnersOnly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        let previous = umask(0o022)
        defer { umask(previous) }

        let server = try NotesServer.sqlite(path: path, log: { _ in })
        _ = try await server.createAccount(username: "ann")

        #expect(mode(path) == 0o600)
        #expect(mode(path + "-wal") == 0o600)
        #expect(mode(path + "-shm") == 0o600)
        await server.shutDown()
    }

    @Test func anExistingDatabaseWithLooserPermissionsIsTightened() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quire-perm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("server.sqlite").path
        _ = try SQLiteServerStorage(path: path)
        chmod(path, 0o644)

        _ = try SQLiteServerStorage(path: path)

        #expect(mode(path) == 0o600)
    }
}
