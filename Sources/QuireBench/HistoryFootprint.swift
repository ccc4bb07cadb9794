import Foundation
import QuireSQLite

/// What a server database file spends on note history, read with SQLite's `dbstat` table: the
/// pages of `note_versions` (its rows and their overflow pages) and of its age index, with the
/// payload bytes those pages hold, beside the versions and payload characters themselves.
struct HistoryFootprint {
    /// Pages of the `note_versions` b-tree (leaf, interior and overflow pages) and its index.
    var tablePages: Int
    var indexPages: Int
    var pageSize: Int
    /// Free pages of the whole file: pruned versions' pages, reused by later writes.
    var freePages: Int
    var versions: Int
    /// `LENGTH(payload)` summed: the sealed payloads' characters (base64, so bytes).
    var payloadBytes: Int
    /// Versions kept by each note, ascending.
    var versionsPerNote: [Int]

    var bytes: Int { (tablePages + indexPages) * pageSize }

    /// Reads the footprint of the database at `path` over a connection of its own (the file's
    /// WAL lets it read while the store is open). Throws `SQLiteError`.
    static func measure(path: String) throws -> HistoryFootprint {
        let db = try SQLiteConnection(path: path, durability: .normal)
        let pages = try db.query(
            "SELECT name, COUNT(*) FROM dbstat WHERE name IN ('note_versions', 'note_versions_by_age') GROUP BY name"
        ) { ($0.text(0), $0.int(1)) }
        let counts = Dictionary(uniqueKeysWithValues: pages)
        let perNote = try db.query(
            "SELECT COUNT(*), SUM(LENGTH(payload)) FROM note_versions GROUP BY account_id, note_id"
        ) { ($0.int(0), $0.int(1)) }
        return HistoryFootprint(
            tablePages: counts["note_versions"] ?? 0, indexPages: counts["note_versions_by_age"] ?? 0,
            pageSize: try db.queryFirst("PRAGMA page_size") { $0.int(0) } ?? 0,
            freePages: try db.queryFirst("PRAGMA freelist_count") { $0.int(0) } ?? 0,
            versions: perNote.reduce(0) { $0 + $1.0 }, payloadBytes: perNote.reduce(0) { $0 + $1.1 },
            versionsPerNote: perNote.map(\.0).sorted())
    }
}
