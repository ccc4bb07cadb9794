import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Each account keeps at most so many live notes and payload bytes: a put past either answers
/// 403 `quota_exceeded` and stores nothing, on the note route and in a batch (issue 12, item 8).
struct NoteQuotaTests {
    static func harness(_ store: StoreKind, notes: Int = 100, bytes: Int = 1 << 20) async throws -> ServerHarness {
        var configuration = ServerHarness.configuration
        configuration.noteQuota = NoteQuota(maxNotes: notes, maxBytes: bytes)
        return try await ServerHarness(store: store, configuration: configuration)
    }

    @Test(arguments: StoreKind.allCases) func aPutPastTheNoteQuotaIsRefusedAndStoresNothing(store: StoreKind)
        async throws
    {
        let harness = try await Self.harness(store, notes: 2)
        let token = try await harness.server.createAccount(username: "ann")
        let first = ServerHarness.uuid()
        #expect(await harness.put(first, payload: "a", base: nil, token: token).status == 200)
        #expect(await harness.put(ServerHarness.uuid(), payload: "b", base: nil, token: token).status == 200)

        let refused = await harness.put(ServerHarness.uuid(), payload: "c", base: nil, token: token)

        #expect(refused.status == 403)
        #expect(refused.errorCode == "quota_exceeded")
        #expect(refused.text.contains("delete or shorten notes"))
        #expect(try await harness.changes(token: token).changes.count == 2)
        #expect(await harness.put(first, payload: "edit", base: 1, token: token).status == 200, "edits still work")
        #expect(await harness.delete(first, base: 2, token: token).status == 204)
        #expect(await harness.put(ServerHarness.uuid(), payload: "c", base: nil, token: token).status == 200)
    }

    @Test(arguments: StoreKind.allCases) func aPutPastTheByteQuotaIsRefusedButAShorterEditPasses(store: StoreKind)
        async throws
    {
        let harness = try await Self.harness(store, bytes: 100)
        let token = try await harness.server.createAccount(username: "ann")
        let note = ServerHarness.uuid()
        #expect(
            await harness.put(note, payload: String(repeating: "a", count: 80), base: nil, token: token).status == 200)

        let other = await harness.put(
            ServerHarness.uuid(), payload: String(repeating: "b", count: 21), base: nil, token: token)
        let longer = await harness.put(note, payload: String(repeating: "a", count: 101), base: 1, token: token)
        let shorter = await harness.put(note, payload: String(repeating: "a", count: 60), base: 1, token: token)

        #expect(other.status == 403 && other.errorCode == "quota_exceeded")
        #expect(longer.status == 403 && longer.errorCode == "quota_exceeded")
        #expect(shorter.status == 200)
        #expect(
            await harness.put(ServerHarness.uuid(), payload: String(repeating: "b", count: 40), base: nil, token: token)
                .status == 200)
    }

    @Test(arguments: StoreKind.allCases) func aBatchCountsItsOwnEarlierWrites(store: StoreKind) async throws {
        let harness = try await Self.harness(store, notes: 2)
        let token = try await harness.server.createAccount(username: "ann")
        let changes = (1...3).map {
            BatchChangeDTO(
                op: "put", id: ServerHarness.uuid(), idempotencyKey: "k\($0)", payload: "p", baseVersion: nil)
        }

        let response = await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.batch, headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(BatchRequestDTO(changes: changes))))
        let results = try WireJSON.decoder().decode(BatchResponseDTO.self, from: response.body).results

        #expect(results.map(\.status) == [200, 200, 403])
        #expect(results[2].error?.code == "quota_exceeded")
    }
}
