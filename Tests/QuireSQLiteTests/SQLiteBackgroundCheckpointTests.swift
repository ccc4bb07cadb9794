import Foundation
import Testing

@testable import QuireSQLite

/// The write-ahead log is copied into the file on a thread of its own, never inside the writer's
/// commits while that thread keeps up, and stays bounded when it does not.
@Suite struct SQLiteBackgroundCheckpointTests {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("quire-checkpoint-\(UUID().uuidString).sqlite").path
    /// A log frame: a 4 KiB page and its 24-byte header.
    static let frameBytes = 4_096 + 24

    private func writer() throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")
        return connection
    }

    /// `commits` transactions of two 3 KB rows (each a page of its own), a pause between them.
    private func write(_ commits: Int, on db: SQLiteConnection) throws {
        for _ in 0..<commits {
            try db.transaction {
                for _ in 0..<2 { try db.run("INSERT INTO notes (body) VALUES (?)", Data(repeating: 7, count: 3_000)) }
            }
            usleep(2_000)
        }
    }

    private var logBytes: Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    private func removeFiles() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test func theThreadCopiesTheLogAndTheWritersCommitsNever() throws {
        defer { removeFiles() }
        let db = try writer()
        let checkpoints = try SQLiteBackgroundCheckpoint(path: path, writer: db, frames: 50, fallbackFrames: 400)
        defer { checkpoints.stop() }

        try write(300, on: db)

        // About 900 frames were written: with no checkpoint the log would hold them all.
        #expect(checkpoints.counts.background >= 1)
        #expect(checkpoints.counts.byWriter == 0, "\(checkpoints.counts)")
        #expect(logBytes <= 400 * Self.frameBytes, "the log grew to \(logBytes) bytes")
    }

    @Test func theWriterCheckpointsItselfWhenTheThreadIsGone() throws {
        defer { removeFiles() }
        let db = try writer()
        let checkpoints = try SQLiteBackgroundCheckpoint(path: path, writer: db, frames: 50, fallbackFrames: 200)
        checkpoints.stop()

        try write(300, on: db)

        #expect(checkpoints.counts.background == 0)
        #expect(checkpoints.counts.byWriter >= 1)
        #expect(logBytes <= 250 * Self.frameBytes, "the log grew to \(logBytes) bytes")
    }

    @Test func aFailedCopyIsCountedReportedAndTriedAgainAndLosesNoCommit() throws {
        defer { removeFiles() }
        let db = try writer()
        let reports = Reports()
        let checkpoints = try SQLiteBackgroundCheckpoint(
            path: path, writer: db, frames: 20, fallbackFrames: 60, report: { reports.append($0) },
            checkpoint: { _ in throw SQLiteError(code: 10, message: "disk I/O error", sql: nil) })

        try write(100, on: db)  // every commit is answered, none of them is failed for it
        checkpoints.stop()  // the thread's last try is over before counting

        let counts = checkpoints.counts
        #expect(counts.background == 0 && counts.byWriter == 0)
        // The writer tries again at each commit past the fallback: far more than one failure.
        #expect(counts.failed > 10, "\(counts)")
        #expect(counts.lastFailure?.contains("disk I/O error") == true)
        // Reported the 1st, 2nd, 4th… time: a lasting failure does not flood the log.
        #expect(reports.lines.count == counts.failed.bitWidth - counts.failed.leadingZeroBitCount)
        #expect(reports.lines.first?.contains("nothing is lost") == true)
        #expect(try db.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } == 200)
    }

    @Test func aCopyRefusedWhileAnotherRunsIsNoFailure() throws {
        defer { removeFiles() }
        let db = try writer()
        let checkpoints = try SQLiteBackgroundCheckpoint(
            path: path, writer: db, frames: 20, fallbackFrames: 60, report: { _ in },
            checkpoint: { _ in throw SQLiteError(code: 5, message: "database is locked", sql: nil) })
        defer { checkpoints.stop() }

        try write(60, on: db)

        #expect(checkpoints.counts.failed == 0)
    }

    @Test func everyCommittedRowIsInTheFileWhateverCopiedIt() throws {
        defer { removeFiles() }
        do {
            let db = try writer()
            let checkpoints = try SQLiteBackgroundCheckpoint(path: path, writer: db, frames: 20, fallbackFrames: 60)
            try write(200, on: db)
            #expect(checkpoints.counts.background + checkpoints.counts.byWriter >= 1)
            checkpoints.stop()
        }
        let reopened = try SQLiteConnection(path: path)
        #expect(try reopened.queryFirst("SELECT count(*) FROM notes") { $0.int(0) } == 400)
        #expect(try reopened.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
    }
}

/// Lines a test's `report` was given, from any thread.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
