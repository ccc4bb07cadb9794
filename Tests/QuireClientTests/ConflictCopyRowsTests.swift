import Foundation
import QuireDomain
import QuireSQLite
import Testing

@testable import QuireClient

/// A note's conflict copies, read by the conflict index wherever they sit in the list: what the
/// editor, the conflict screen and `quire diff`/`resolve` ask for (what they read:
/// NotesDatabaseEditedFromTests).
@Suite struct ConflictCopyRowsTests {
    @Test func theCopiesAreReadByTheConflictIndex() throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        _ = try fixture.open()
        let connection = try SQLiteConnection(path: fixture.fileURL.path, durability: .normal)
        let plan = try connection.query(
            "EXPLAIN QUERY PLAN " + NotesDatabase.conflictCopiesQuery, bindings: ["a"]
        ) { ($0.int(1), $0.text(3)) }
        .filter { $0.0 == 0 }.map(\.1)

        #expect(plan.contains { $0.contains("INDEX notes_by_conflict_of") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("SCAN n") }, "plan: \(plan)")
    }
}
