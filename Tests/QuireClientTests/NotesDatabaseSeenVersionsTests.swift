import Foundation
import QuireClient
import QuireDomain
import Testing

/// The versions a device held (`seen_versions`), kept by triggers under every write path.
struct NotesDatabaseSeenVersionsTests {
    let account = AccountID("account-1")

    /// After restores a note can be listed again at a version and tag this device held before
    /// (tag A, then B from another history, then A again): storing it must not fail the page
    /// (10-device seed 34: UNIQUE constraint failed: seen_versions).
    @Test func aVersionListedAgainWithATagHeldBeforeIsStored() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        func remote(_ body: String, tag: String) -> RemoteNote {
            RemoteNote(
                id: id, version: 1, updatedAt: Date(), content: NoteContent(title: "T", body: body),
                versionTag: tag)
        }

        try await database.apply([remote("first", tag: "A")], cursor: Cursor("c1"), account: account)
        try await database.apply([remote("second", tag: "B")], cursor: Cursor("c2"), account: account)
        try await database.apply([remote("first", tag: "A")], cursor: Cursor("c3"), account: account)

        #expect(try await database.noteRow(id: id)?.body == "first")
    }
}
