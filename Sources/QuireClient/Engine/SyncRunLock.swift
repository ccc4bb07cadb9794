import Foundation

/// Serializes the sync runs of one device across every engine on its database: `quire watch` and
/// a `quire sync` (or the app and its share extension) are two processes, two connections and two
/// engines on one file, and two runs at once would send one change twice with different bytes.
public protocol SyncRunLock: Sendable {
    /// Runs `body` once no other run of this device is going; throws when the lock cannot be had.
    func whileSyncing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

/// The lock of a device directory: an exclusive `flock` on `sync.lock` beside the database.
public struct FileSyncRunLock: SyncRunLock {
    public let file: URL

    public init(directory: URL) {
        file = directory.appendingPathComponent("sync.lock")
    }

    /// A lock on `file` itself, for several devices' databases in one folder.
    public init(file: URL) {
        self.file = file
    }

    public func whileSyncing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await FileLock.holding(file, body)
    }

    /// Whether a run holds the lock now, in this process or another (a lock this process takes
    /// through another open of the file conflicts like another process's). Answers at once; a
    /// file that cannot be opened holds nothing.
    public func isHeld() -> Bool {
        FileLock.isHeld(file)
    }
}

/// No lock: for a database only one engine ever opens (a test with one device in one process).
public struct NoSyncRunLock: SyncRunLock {
    public init() {}

    public func whileSyncing<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }
}
