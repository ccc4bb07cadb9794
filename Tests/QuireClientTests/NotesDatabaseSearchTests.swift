import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import QuireTestSupport
import Testing

/// Full-text search on the device (SQLite FTS5): kept in the same transaction as every write,
/// diacritics folded, ranked by bm25 with titles counting most.
struct NotesDatabaseSearchTests {
    @Test func aSavedNoteIsFoundByItsTitleAndByItsBodyWithTheMatchHighlighted() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let groceries = NoteID()
        try await database.saveNote(id: groceries, title: "Groceries", body: "milk\neggs\nbread")
        try await database.saveNote(id: NoteID(), title: "Trip", body: "pack the charger")

        let byTitle = try await database.search("groceries", highlight: ("[", "]"))
        #expect(byTitle.map(\.id) == [groceries])
        #expect(byTitle.first?.highlightedTitle == "[Groceries]")
        #expect(byTitle.first?.title == "Groceries")
        let byBody = try await database.search("eggs", highlight: ("[", "]"))
        #expect(byBody.map(\.id) == [groceries])
        #expect(byBody.first?.snippet.contains("[eggs]") == true)
        #expect(try await database.search("nothing-like-this").isEmpty)
    }

    @Test(arguments: [("cafe", "Café"), ("creme brulee", "crème brûlée"), ("CAFÉ", "café"), ("naive", "naïve")])
    func diacriticsAndCaseFold(query: String, stored: String) async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Note", body: "at the \(stored) today")
        #expect(try await database.search(query).map(\.id) == [id])
    }

    @Test func wordsMatchByPrefixAndEveryWordMustMatch() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let both = NoteID()
        try await database.saveNote(id: both, title: "Shopping", body: "oat milk and eggs")
        try await database.saveNote(id: NoteID(), title: "Dairy", body: "milk only")
        #expect(try await database.search("groc").isEmpty)
        #expect(try await database.search("shop").map(\.id) == [both])
        #expect(try await database.search("milk eggs").map(\.id) == [both])
    }

    @Test func aTitleMatchRanksAboveABodyMatch() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let inBody = NoteID()
        let inTitle = NoteID()
        try await database.saveNote(id: inBody, title: "Week", body: "remember the budget for the week")
        fixture.clock.advance()
        try await database.saveNote(id: inTitle, title: "Budget", body: "rent, food")
        #expect(try await database.search("budget").map(\.id) == [inTitle, inBody])
    }

    @Test func anEditReplacesTheIndexedTextAndADeleteRemovesIt() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Draft", body: "apples")
        try await database.saveNote(id: id, title: "Draft", body: "pears")
        #expect(try await database.search("apples").isEmpty)
        #expect(try await database.search("pears").map(\.id) == [id])
        try await database.deleteNote(id: id)
        #expect(try await database.search("pears").isEmpty)
        #expect(try await database.search("draft").isEmpty)
    }

    @Test func aSaveThatRollsBackLeavesNothingInTheIndex() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        struct Fault: Error {}
        await database.setFaultAfterNoteWrite(Fault())
        await #expect(throws: Fault.self) {
            try await database.saveNote(id: NoteID(), title: "Lost", body: "half written")
        }
        await database.setFaultAfterNoteWrite(nil)
        #expect(try await database.search("written").isEmpty)
    }

    @Test func queriesWithSearchSyntaxAreTakenAsWords() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Quote", body: #"she said "AND" NOT -x (y*) near"#)
        for query in [#"""#, "AND", "NOT -x", "(y*)", "title:quote", "   ", "^", "said\""] {
            _ = try await database.search(query)  // never a syntax error
        }
        #expect(try await database.search(#""and""#).map(\.id) == [id])
        #expect(try await database.search("").isEmpty)
    }

    @Test func aNoteArrivingByAPullIsFoundAndAConflictCopyIsMarked() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Shared", body: "the quarterly report")
        _ = await phone.sync()
        _ = await laptop.sync()
        #expect(try await laptop.database.search("quarterly").map(\.id) == [id])

        try await phone.edit(id, body: "the annual report")
        try await laptop.edit(id, body: "the monthly report")
        _ = await phone.sync()
        _ = await laptop.sync()
        let hits = try await laptop.database.search("report")
        #expect(hits.count == 2)
        #expect(hits.filter { $0.conflictOf == id }.count == 1)
        #expect(try await laptop.database.search("quarterly").isEmpty)
    }

    @Test func notesSavedBeforeTheIndexExistedAreFound() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let id = NoteID()
        do {
            let old = try SQLiteConnection(path: fixture.fileURL.path)
            try SQLiteMigrator(Array(NotesSchema.migrations.prefix(6))).migrate(old)
            try old.run(
                "INSERT INTO notes (id, title, body, updated_at) VALUES (?, 'Old note', 'from before search', 10)",
                id.description)
        }
        let database = try fixture.open()
        #expect(try await database.search("before").map(\.id) == [id])
    }
}
