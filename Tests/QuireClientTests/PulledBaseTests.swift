import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import QuireTestSupport
import Testing

/// A note's merge base is stored only where it differs from its text (client migration 15): a
/// pulled note's base is "the text", and every reader and every edit must treat it so.
struct PulledBaseTests {
    let account = AccountID("account-1")
    let lines = (1...6).map { "line \($0) of the shared plan" }

    func remote(_ id: NoteID, _ version: Int, _ title: String, _ body: String) -> RemoteNote {
        RemoteNote(
            id: id, version: version, updatedAt: Date(timeIntervalSinceReferenceDate: Double(version)),
            content: NoteContent(title: title, body: body), versionTag: "tag-\(version)")
    }

    /// The row's base columns as stored: (base_is_text, base_title, base_body).
    func baseColumns(_ file: URL, _ id: NoteID) throws -> (Bool, String?, String?)? {
        let connection = try SQLiteConnection(path: file.path)
        return try connection.queryFirst(
            "SELECT base_is_text, base_title, base_body FROM notes WHERE id = ?", id.description
        ) { ($0.bool(0), $0.optionalText(1), $0.optionalText(2)) }
    }

    /// Given a note that reached the laptop in its first sync, edited on the laptop offline (its
    /// first line changed, its third deleted) and on the phone (its last line): the laptop's sync
    /// merges the two edits into one text. Read as an empty base, the pulled base would make the
    /// phone's copy look like it added the third line (it comes back); read as the edited text,
    /// the laptop's edits would look like no edit and be lost.
    @Test func aNoteFromAFirstSyncMergesAgainstThePulledText() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Plan", body: lines.joined(separator: "\n"))
        await phone.sync()
        await laptop.sync()
        let stored = try #require(try baseColumns(laptop.directory.appendingPathComponent("notes.sqlite"), id))
        #expect(stored.0 && stored.1 == nil && stored.2 == nil, "a pulled note stores its text once")

        var laptopLines = lines
        laptopLines[0] = "line 1, moved to Tuesday"
        laptopLines.remove(at: 2)
        try await laptop.edit(id, body: laptopLines.joined(separator: "\n"))
        var phoneLines = lines
        phoneLines[5] = "line 6, with tickets booked"
        try await phone.edit(id, body: phoneLines.joined(separator: "\n"))
        await phone.sync()
        let report = await laptop.sync()
        await phone.sync()

        #expect(report.merged == 1)
        #expect(report.conflictCopies == 0)
        var merged = lines
        merged[0] = laptopLines[0]
        merged[5] = phoneLines[5]
        merged.remove(at: 2)
        for device in [phone, laptop] {
            let notes = await device.all()
            #expect(notes.count == 1)
            #expect(notes.first?.body == merged.joined(separator: "\n"))
        }
    }

    /// An edit over a pulled text keeps that text as the base (the trigger writes it out), and the
    /// history counts it as the version it was.
    @Test func anEditOverAPulledTextKeepsThatTextAsItsBase() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.apply(
            [remote(id, 3, "Pulled", "as the server has it")], cursor: Cursor("c1"), account: account)
        #expect(try baseColumns(fixture.fileURL, id)! == (true, nil, nil))
        #expect(try await database.localHistory(of: id).first?.version == 3, "the text is version 3")

        try await database.saveNote(id: id, title: "Pulled", body: "as edited here")

        #expect(try baseColumns(fixture.fileURL, id)! == (false, "Pulled", "as the server has it"))
        let change = try #require(try await database.nextChange())
        let context = try await database.conflictContext(for: change.id)
        #expect(context.base == NoteText(title: "Pulled", body: "as the server has it"))
        let history = try await database.localHistory(of: id)
        #expect(history.map(\.version) == [nil, 3], "the edit is local, the pulled text version 3")
    }

    /// An acknowledged save whose text is still the note's stores its base as "the text"; a note
    /// never confirmed has no base, and neither has a tombstone.
    @Test func aConfirmedTextIsItsOwnBaseAndANewNoteHasNone() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let id = NoteID()
        try await database.saveNote(id: id, title: "Typed", body: "here")
        #expect(try baseColumns(fixture.fileURL, id)! == (false, nil, nil))
        let change = try #require(try await database.nextChange())
        #expect(try await database.conflictContext(for: change.id).base == nil)

        try await database.complete(change.id, version: 1, tag: "t1")
        #expect(try baseColumns(fixture.fileURL, id)! == (true, nil, nil))
        try await database.apply(
            [RemoteNote(id: id, version: 2, updatedAt: Date(), content: nil, versionTag: "t2")],
            cursor: Cursor("c1"), account: account)
        #expect(try baseColumns(fixture.fileURL, id)! == (false, nil, nil))
    }

    /// A file from before migration 15 keeps every base: one equal to the text becomes "the
    /// text", one that differs stays as it was.
    @Test func aFileFromBeforeMigrationFifteenKeepsItsBases() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let same = NoteID()
        let edited = NoteID()
        do {
            let old = try SQLiteConnection(path: fixture.fileURL.path)
            try SQLiteMigrator(Array(NotesSchema.migrations.prefix(14))).migrate(old)
            try old.run(
                """
                INSERT INTO notes (id, title, body, updated_at, version, base_title, base_body, confirmed)
                VALUES (?1, 'Same', 'text', 10, 2, 'Same', 'text', 1),
                       (?2, 'Edited', 'new text', 10, 2, 'Edited', 'old text', 1)
                """, same.description, edited.description)
            try old.run(
                """
                INSERT INTO pending_changes (change_id, note_id, kind, title, body, created_at, base_version)
                VALUES (?1, ?2, 'put', 'Edited', 'new text', 10, 2)
                """, ChangeID().description, edited.description)
        }

        let database = try fixture.open()

        #expect(try baseColumns(fixture.fileURL, same)! == (true, nil, nil))
        #expect(try baseColumns(fixture.fileURL, edited)! == (false, "Edited", "old text"))
        let change = try #require(try await database.nextChange())
        #expect(try await database.conflictContext(for: change.id).base == NoteText(title: "Edited", body: "old text"))
        #expect(try await database.localHistory(of: same).first?.version == 2)
    }
}

/// Large pulled pages are stored in bulk mode (``BulkPull``), left at the next other write.
struct BulkPullTests {
    let account = AccountID("account-1")

    func page(_ count: Int, version: Int = 1) -> [RemoteNote] {
        (0..<count).map { index in
            RemoteNote(
                id: NoteID(), version: version, updatedAt: Date(timeIntervalSinceReferenceDate: Double(index)),
                content: NoteContent(title: "Note \(index)", body: "body \(index)"), versionTag: "t\(index)")
        }
    }

    @Test func aLargePageCheckpointsRarelyUntilTheNextOtherWrite() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        try await database.bindAccount(account)
        let before = try await database.walAutocheckpointPages()

        try await database.apply(page(10), cursor: Cursor("c1"), account: account)
        #expect(try await database.walAutocheckpointPages() == before, "a small page changes nothing")
        try await database.apply(page(150), cursor: Cursor("c2"), account: account)
        #expect(try await database.walAutocheckpointPages() > before)
        try await database.apply(page(150), cursor: Cursor("c3"), account: account)

        try await database.positionsVerified(through: Cursor("c3"))
        #expect(try await database.walAutocheckpointPages() == before)
        #expect(try await database.cursor() == Cursor("c3"))
        let connection = try SQLiteConnection(path: fixture.fileURL.path)
        #expect(try connection.queryFirst("SELECT count(*) FROM notes_search('body')") { $0.int(0) } == 310)
        try connection.run("INSERT INTO notes_search (notes_search, rank) VALUES ('integrity-check', 1)")
    }
}
