import Foundation
import QuireCrypto

/// A ``CredentialStore`` in `<directory>/session.json`, readable and writable by its owner only
/// (mode 0600), for Linux, where there is no Keychain.
///
/// `save` writes atomically through ``SecretFile/write(_:to:)`` (a temporary file, then a rename).
/// `load` refuses a file that the group or others can read or write, throwing ``SecretFileError``,
/// whose message says to run `chmod 600` on it: tokens and the notes key must not be readable by
/// other users, and a loosened file may already have leaked, so it is not silently tightened.
/// Refreshes are serialized across processes with an exclusive `flock` on `session.lock` beside the
/// file (see ``whileRefreshing(_:)``); other writes are atomic renames, the last one wins.
public struct FileCredentialStore: CredentialStore {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `<directory>/session.json`.
    public var fileURL: URL { directory.appendingPathComponent("session.json") }

    /// - Throws: ``SecretFileError`` when the file's mode is looser than 0600;
    ///   ``AccountError/unreadableSession`` when it is not a session; file-system errors as they come.
    public func load() throws -> AccountSession? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        try SecretFile.checkPermissions(of: fileURL)
        let data = try Data(contentsOf: fileURL)
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            return try decoder.decode(AccountSession.self, from: data)
        } catch {
            throw AccountError.unreadableSession.with(
                message: "\(fileURL.path) is not a readable session; sign in again.")
        }
    }

    /// Creates the directory (mode 0700) if needed, then writes the file with mode 0600.
    public func save(_ session: AccountSession) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Seconds as a number read back to the same Date, so a loaded session equals the saved one.
        encoder.dateEncodingStrategy = .secondsSince1970
        try SecretFile.write(try encoder.encode(session), to: fileURL)
    }

    public func clear() throws {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        try FileManager.default.removeItem(at: fileURL)
    }

    /// Holds an exclusive `flock` on `<directory>/session.lock` while `body` runs. Taking the lock
    /// waits on a thread of its own, never on the concurrency pool. The lock goes with the process if
    /// it dies, so a killed refresher never blocks the next one.
    public func whileRefreshing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await FileLock.holding(directory.appendingPathComponent("session.lock"), body)
    }
}
