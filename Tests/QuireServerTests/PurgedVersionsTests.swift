import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// A note id written again after its tombstone was purged goes on from its last version: a
/// version never names two different texts of one id, or a device still holding the old
/// version 1 would take the new note for the copy it already has (found by the simulation's
/// purge fault).
struct PurgedVersionsTests {
    @Test(arguments: StoreKind.allCases) func aNoteWrittenAgainAfterItsTombstoneWasPurgedGoesOnFromItsLastVersion(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = ServerHarness.uuid()
        #expect(await harness.put(id, payload: "v1", base: nil, token: token).status == 200)
        #expect(await harness.delete(id, base: 1, token: token).status == 204)
        harness.clock.advance(by: 1)
        // A retention of zero: every tombstone older than now goes.
        let purged = try await harness.server.purgeTombstones(olderThan: harness.clock.now)
        #expect(purged == 1)

        // A device that held version 1 edits it: it meets the delete first (a 409 with the
        // tombstone's last version), then, an edit beating a delete, writes on that version.
        let first = await harness.put(id, payload: "edited after the purge", base: 1, token: token)
        #expect(first.status == 409)
        #expect(try first.decoded(ConflictResponseDTO.self).note.version == 2)
        let again = await harness.put(id, payload: "edited after the purge", base: 2, token: token)

        #expect(again.status == 200)
        let version = try again.decoded(PutNoteResponseDTO.self).version
        #expect(version == 3)
        let page = try await harness.changes(token: token, limit: nil)
        #expect(page.changes.first { $0.id == id }?.version == 3)
    }

    /// A first put resent after its note was deleted and purged (its idempotency record expired
    /// with the tombstone) is not applied again: it meets the delete as a 409.
    @Test(arguments: StoreKind.allCases) func aFirstPutResentAfterItsNoteWasPurgedMeetsTheDelete(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = ServerHarness.uuid()
        #expect(await harness.put(id, payload: "v1", base: nil, token: token).status == 200)
        #expect(await harness.delete(id, base: 1, token: token).status == 204)
        harness.clock.advance(by: 1)
        #expect(try await harness.server.purgeTombstones(olderThan: harness.clock.now) == 1)

        let resent = await harness.put(id, payload: "v1", base: nil, token: token)

        #expect(resent.status == 409)
        let conflict = try resent.decoded(ConflictResponseDTO.self)
        #expect(conflict.note.deleted)
        #expect(conflict.note.version == 2)
        #expect(try await harness.changes(token: token, limit: nil).changes.isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aFreshIdStillStartsAtVersionOne(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let response = await harness.put(ServerHarness.uuid(), payload: "new", base: nil, token: token)
        #expect(try response.decoded(PutNoteResponseDTO.self).version == 1)
    }
}
