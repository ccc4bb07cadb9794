import Foundation

/// Where the app keeps its databases: `Application Support/Quire`, its files protected with
/// `completeUntilFirstUserAuthentication` on iOS. Seed 000: `complete` would lock the database
/// while the phone is locked, and a background sync would fail; this class keeps it readable from
/// the first unlock after boot.
enum DataDirectory {
    /// The database files the device opens there (QuireDevice: notes and trips, with SQLite's WAL
    /// and shared-memory files).
    static let databaseFiles = ["notes.sqlite", "trips.sqlite"].flatMap { name in
        ["", "-wal", "-shm"].map { name + $0 }
    }

    /// Creates the directory (protected) if needed and returns it.
    static func prepare() throws -> URL {
        let base = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        let directory = base.appendingPathComponent("Quire", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try protect(directory)
        return directory
    }

    /// Protects the directory's database files that exist now. Files SQLite creates later (a new
    /// WAL after a checkpoint) get the app's default class, which is this same one on iOS unless
    /// an entitlement names another (this app's names none).
    static func protectDatabaseFiles(in directory: URL) throws {
        for name in databaseFiles {
            let file = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) { try protect(file) }
        }
    }

    /// Sets `completeUntilFirstUserAuthentication` on iOS; on macOS the disk's own encryption
    /// (FileVault) applies and there are no per-file classes to set.
    private static func protect(_ url: URL) throws {
        #if os(iOS)
            try FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: url.path)
        #endif
    }
}
