import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import Testing

/// A temporary folder holding one notes database file, and a manual clock for its timestamps.
/// Call `cleanUp()` (in a `defer`) to remove the folder.
struct DatabaseFixture {
    let directory: URL
    let clock = ManualDateClock()

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-db-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var fileURL: URL { directory.appendingPathComponent("notes.sqlite") }

    /// Opens (or reopens) the database file with the fixture's clock.
    func open() throws -> NotesDatabase {
        let clock = clock
        return try NotesDatabase(fileURL: fileURL, now: { clock.now })
    }

    /// Opens without an fsync per commit, for volume tests (crash safety is not what they check).
    func openFast() throws -> NotesDatabase {
        let clock = clock
        return try NotesDatabase(fileURL: fileURL, now: { clock.now }, durability: .normal)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A clock tests move by hand: every read returns the current time, `advance` moves it.
///
/// `@unchecked Sendable`: its one mutable field is only touched under `lock`.
final class ManualDateClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSinceReferenceDate: 800_000_000)

    var now: Date { lock.withLock { current } }

    func advance(by seconds: TimeInterval = 1) {
        lock.withLock { current += seconds }
    }
}

/// Test shorthands over the database's protocols.
extension NotesDatabase {
    /// Saves a note and has the server accept it at `version`, as a finished push would.
    func saveSynced(_ id: NoteID, title: String, body: String, version: Int) throws {
        try saveNote(id: id, title: title, body: body)
        let change = try #require(try nextChange())
        try complete(change.id, version: version)
    }
}
