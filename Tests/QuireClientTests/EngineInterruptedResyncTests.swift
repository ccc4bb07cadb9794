import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// A full resync cut short by a failure must still be finished by a later run: found by the sync
/// simulation (quire-sim seed 1636: a device whose resync failed kept a note deleted elsewhere).
@Suite struct EngineInterruptedResyncTests {
    @Test func aResyncInterruptedOnItsFirstPageStillRemovesNotesDeletedElsewhere() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let kept = try await phone.create(title: "Kept", body: "a")
        let gone = try await phone.create(title: "Gone", body: "b")
        await phone.sync()
        await laptop.sync()

        // The laptop's cursor expires and its first resync page is lost; then the note goes.
        laptop.transport.enqueue(.status(410), .dropRequest)
        #expect(await laptop.sync().failure != nil)
        try await phone.delete(gone)
        await phone.sync()

        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.note(gone) == nil)
        #expect(try await laptop.note(kept)?.body == "a")
    }

    @Test func aResyncInterruptedAfterAPageStillRemovesNotesDeletedElsewhere() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop", pageLimit: 1)
        let gone = try await phone.create(title: "Gone", body: "a")
        let edited = try await phone.create(title: "Edited", body: "b")
        await phone.sync()
        await laptop.sync()
        // The delete lands before the edit, so its tombstone sits behind the resync's first page.
        try await phone.delete(gone)
        await phone.sync()
        try await phone.edit(edited, body: "b, edited")
        try await phone.create(title: "New", body: "c")
        await phone.sync()

        // 410; the first resync page (the edited note) arrives, the second is lost.
        laptop.transport.enqueue(.status(410), nil, .dropRequest)
        #expect(await laptop.sync().failure != nil)

        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.note(gone) == nil)
        #expect(await laptop.contents() == phone.contents())
    }

    @Test func finishingWithNoResyncInProgressRemovesNothing() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let id = try await phone.create(title: "Stays", body: "here")
        await phone.sync()
        try await phone.database.finishFullResync()
        #expect(try await phone.note(id)?.body == "here")
    }
}
