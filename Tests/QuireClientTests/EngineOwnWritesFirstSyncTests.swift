import Foundation
import QuireClient
import QuireDomain
import QuireSQLite
import QuireTestSupport
import QuireWire
import Testing

/// A device that wrote notes offline does not download them back on its first sync: the first
/// listing leaves out the payloads of its own session's writes and the device confirms them by
/// version and tag; on any mismatch it fetches the page's payloads, so nothing is lost.
@Suite struct EngineOwnWritesFirstSyncTests {
    /// Counts, in every changes page the device receives, the entries with a payload and those
    /// marked as its own write; and remembers each changes request's query.
    ///
    /// `@unchecked Sendable`: `counts` is only read and written while holding `lock`.
    final class PayloadCounter: HTTPTransport, @unchecked Sendable {
        private let inner: HTTPTransport
        private let lock = NSLock()
        private var counts = (payloads: 0, own: 0, queries: [String]())

        init(wrapping inner: HTTPTransport) { self.inner = inner }

        var payloads: Int { lock.withLock { counts.payloads } }
        var ownWrites: Int { lock.withLock { counts.own } }
        var changeQueries: [String] { lock.withLock { counts.queries } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            let response = try await inner.send(request)
            guard request.method == "GET", request.path.hasPrefix(WireRoutes.changes), response.status == 200,
                let page = try? WireJSON.decoder().decode(ChangesPageDTO.self, from: response.body)
            else { return response }
            lock.withLock {
                counts.payloads += page.changes.filter { $0.payload != nil }.count
                counts.own += page.changes.filter { $0.ownWrite == true }.count
                counts.queries.append(request.path)
            }
            return response
        }
    }

    /// The device's engine with its requests going through `counter`.
    private func engine(for device: ClusterDevice, counter: PayloadCounter, pageLimit: Int) -> NotesSyncEngine {
        NotesSyncEngine(
            records: device.database,
            api: NotesAPIClient(transport: counter, tokens: StaticTokenProvider(token: device.token)),
            codec: device.codec, account: AccountID("cluster"), pageLimit: pageLimit)
    }

    @Test func aFirstSyncReceivesOnlyOtherDevicesNotes() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let laptop = try await cluster.addDevice("laptop")
        for index in 0..<20 { try await laptop.create(title: "laptop \(index)", body: "from the laptop \(index)") }
        #expect(await laptop.sync().succeeded)
        // The phone wrote 30 notes offline and syncs for the first time.
        let phone = try await cluster.addDevice("phone")
        for index in 0..<30 { try await phone.create(title: "phone \(index)", body: "typed offline \(index)") }
        let counter = PayloadCounter(wrapping: phone.transport)

        let report = await engine(for: phone, counter: counter, pageLimit: 8).syncOnce()

        #expect(report.succeeded)
        #expect(report.pushed == 30)
        #expect(report.received == 20, "only the laptop's notes are received")
        #expect(counter.payloads == 20)
        #expect(counter.ownWrites == 30)
        #expect(counter.changeQueries.allSatisfy { $0.contains("ownPayloads=omit") })
        // Nothing was dropped for being unlisted: the phone holds all 50, synced, as the laptop.
        #expect(await phone.all().count == 50)
        #expect(await phone.all().allSatisfy { $0.sync == .synced })
        #expect(await laptop.sync().succeeded)
        #expect(await phone.contents() == laptop.contents())
    }

    @Test func anOwnWriteTheDeviceDoesNotHoldAsListedIsFetchedWithItsPayload() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let odd = try await phone.create(title: "Groceries", body: "eggs")
        for index in 0..<3 { try await phone.create(title: "note \(index)", body: "body \(index)") }
        #expect(await phone.sync().succeeded)
        // The phone lists from the start again, holding one of its notes at another version than
        // the server lists (as after an answer it never got): that one cannot be confirmed.
        let raw = try SQLiteConnection(path: phone.directory.appendingPathComponent("notes.sqlite").path)
        _ = try raw.run("UPDATE notes SET version = 0, version_tag = NULL WHERE id = ?", odd.description)
        _ = try raw.run("DELETE FROM sync_meta WHERE key = 'cursor'")
        let counter = PayloadCounter(wrapping: phone.transport)

        let report = await engine(for: phone, counter: counter, pageLimit: 200).syncOnce()

        #expect(report.succeeded)
        let queries = counter.changeQueries
        #expect(queries.count == 2, "the page once without payloads, then again with them: \(queries)")
        #expect(queries.first?.contains("ownPayloads=omit") == true)
        #expect(queries.last?.contains("ownPayloads") == false)
        #expect(counter.payloads == 4)
        #expect(report.received == 1, "the note held at another version took the server's copy; three were confirmed")
        // Nothing was lost or dropped as unlisted, and every note is confirmed again.
        #expect(try await phone.note(odd)?.body == "eggs")
        #expect(await phone.all().count == 4)
        #expect(await phone.all().allSatisfy { $0.sync == .synced })
        let tablet = try await cluster.addDevice("tablet")
        #expect(await tablet.sync().succeeded)
        #expect(await tablet.contents() == phone.contents())
    }

    @Test func aMismatchedOwnWriteWritesNothingAndSaysSo() async throws {
        let fixture = try DatabaseFixture()
        defer { fixture.cleanUp() }
        let database = try fixture.open()
        let id = NoteID()
        try await database.saveNote(id: id, title: "Groceries", body: "eggs")
        try await database.bindAccount(AccountID("ann"))
        let change = try #require(try await database.nextChanges(limit: 10, skipping: []).first)
        try await database.complete(change.id, version: 1, tag: "7", position: nil, replayed: false)
        try await database.beginFullResync(.firstListing)

        let wrongTag = try await database.apply(
            [], confirming: [ListedOwnWrite(id: id, version: 1, versionTag: "8")], cursor: Cursor("c1"),
            account: AccountID("ann"))
        let wrongVersion = try await database.apply(
            [], confirming: [ListedOwnWrite(id: id, version: 2, versionTag: "7")], cursor: Cursor("c1"),
            account: AccountID("ann"))
        let noTag = try await database.apply(
            [], confirming: [ListedOwnWrite(id: id, version: 1, versionTag: nil)], cursor: Cursor("c1"),
            account: AccountID("ann"))

        #expect(wrongTag == nil && wrongVersion == nil && noTag == nil)
        #expect(try await database.cursor() == nil, "a refused page stores no cursor")
        let matched = try await database.apply(
            [], confirming: [ListedOwnWrite(id: id, version: 1, versionTag: "7")], cursor: Cursor("c1"),
            account: AccountID("ann"))
        #expect(matched == 0, "a confirmed own write changes no note")
        #expect(try await database.cursor() == Cursor("c1"))
        // The confirmed note survives the end of the listing.
        try await database.finishFullResync()
        #expect(try await database.noteRow(id: id)?.body == "eggs")
    }
}
