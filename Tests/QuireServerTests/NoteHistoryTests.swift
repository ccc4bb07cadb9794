import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The server keeps every payload a write replaced (history) and a deleted note's last text
/// (trash), on both stores, scoped to the account like the note routes (issue 10, parts 1, 3, 6).
struct NoteHistoryTests {
    @Test(arguments: StoreKind.allCases) func everyReplacedPayloadIsKeptNewestFirstWithTheCurrentText(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["one", "two", "three"], token: token)

        let history = try await harness.history(id, token: token)

        #expect(history.versions.map(\.version) == [3, 2, 1])
        #expect(history.versions.map(\.payload) == ["three", "two", "one"])
        #expect(history.versions.map { $0.current == true } == [true, false, false])
        #expect(history.version == 3)
        #expect(!history.deleted)
        #expect(!history.hasMore)
        #expect(history.versions[2].savedAt < history.versions[0].savedAt)
    }

    @Test(arguments: StoreKind.allCases) func aLongHistoryPagesWithBefore(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["a", "b", "c", "d", "e"], token: token)

        let first = try await harness.history(id, token: token, query: ["limit": "2"])
        let second = try await harness.history(id, token: token, query: ["limit": "2", "before": "4"])
        let last = try await harness.history(id, token: token, query: ["limit": "2", "before": "2"])

        #expect(first.versions.map(\.version) == [5, 4])
        #expect(first.hasMore)
        #expect(second.versions.map(\.version) == [3, 2])
        #expect(last.versions.map(\.version) == [1])
        #expect(!last.hasMore)
    }

    @Test(arguments: StoreKind.allCases) func aDeletedNoteIsInTheTrashAndARestoreOnItsTombstoneKeepsEverything(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["draft", "final"], token: token)
        #expect(await harness.delete(id, base: 2, token: token).status == 204)

        let trash = try await harness.trash(token: token)
        #expect(trash.notes.map(\.id) == [id])
        #expect(trash.notes.first?.version == 3)
        #expect(trash.notes.first?.last.payload == "final")
        #expect(trash.notes.first?.last.version == 2)
        let deleted = try await harness.history(id, token: token)
        #expect(deleted.deleted)
        #expect(deleted.versions.map(\.payload) == ["final", "draft"])

        // A restore is an ordinary put on the tombstone's version.
        let restored = await harness.put(id, payload: "final", base: 3, token: token)

        #expect(restored.status == 200)
        #expect(try await harness.trash(token: token).notes.isEmpty)
        let history = try await harness.history(id, token: token)
        #expect(history.versions.map(\.version) == [4, 2, 1])
        #expect(history.versions.first?.current == true)
        let feed = try await harness.changes(token: token)
        #expect(feed.changes.map(\.payload) == ["final"])
    }

    @Test(arguments: StoreKind.allCases) func aPurgedTombstoneTakesItsHistoryWithIt(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["gone"], token: token)
        let kept = try await harness.writeVersions(["kept", "kept 2"], token: token)
        #expect(await harness.delete(id, base: 1, token: token).status == 204)
        harness.clock.advance(by: 1)

        #expect(try await harness.server.purgeTombstones(olderThan: harness.clock.now) == 1)

        #expect(try await harness.trash(token: token).notes.isEmpty)
        let response = await harness.get(WireRoutes.noteVersions(id), token: token)
        #expect(response.status == 404)
        #expect(try await harness.history(kept, token: token).versions.count == 2)
    }

    @Test(arguments: StoreKind.allCases) func anotherAccountsNoteHistoryIsNotFoundAndItsTrashInvisible(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let alice = try await harness.token("alice")
        let bob = try await harness.token("bob")
        let id = try await harness.writeVersions(["secret", "secret 2"], token: alice)
        let other = try await harness.writeVersions(["deleted secret"], token: alice)
        #expect(await harness.delete(other, base: 1, token: alice).status == 204)

        let response = await harness.get(WireRoutes.noteVersions(id), token: bob)

        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        #expect(!response.text.contains("secret"))
        #expect(try await harness.trash(token: bob).notes.isEmpty)
        #expect(try await harness.trash(token: alice).notes.count == 1)
    }

    @Test(
        arguments: StoreKind.allCases.flatMap { store in
            [
                (store, "/v1/notes/not-a-uuid/versions", [:], 400, "invalid_note_id"),
                (store, "NOTE/versions", ["limit": "0"], 400, "invalid_limit"),
                (store, "NOTE/versions", ["limit": "501"], 400, "invalid_limit"),
                (store, "NOTE/versions", ["before": "0"], 400, "invalid_before"),
                (store, "NOTE/versions", ["before": "x"], 400, "invalid_before"),
                (store, WireRoutes.trash, ["limit": "-1"], 400, "invalid_limit"),
                (store, "/v1/notes/\(ServerHarness.uuid())/versions", [:], 404, "not_found"),
            ] as [(StoreKind, String, [String: String], Int, String)]
        })
    func badInputGetsAClearErrorAndChangesNothing(
        store: StoreKind, path: String, query: [String: String], status: Int, code: String
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["one", "two"], token: token)
        let before = try await harness.everything(token: token)

        let response = await harness.get(
            path.replacingOccurrences(of: "NOTE", with: WireRoutes.note(id)), query: query, token: token)

        #expect(response.status == status)
        #expect(response.errorCode == code)
        #expect(try await harness.everything(token: token) == before)
        #expect(try await harness.history(id, token: token).versions.count == 2)
    }

    @Test(arguments: StoreKind.allCases) func theRoutesNeedATokenAndOnlyGet(store: StoreKind) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.token("alice")
        let id = try await harness.writeVersions(["one"], token: token)

        #expect(await harness.get(WireRoutes.noteVersions(id), token: nil).status == 401)
        #expect(await harness.get(WireRoutes.trash, token: nil).status == 401)
        let put = await harness.server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.noteVersions(id),
                headers: ["Authorization": "Bearer \(token)"], body: Data("{}".utf8)))
        #expect(put.status == 405)
        #expect(ServerMetrics.routeTemplate(for: WireRoutes.noteVersions(id)) == "/v1/notes/{id}/versions")
        #expect(ServerMetrics.routeTemplate(for: WireRoutes.trash) == WireRoutes.trash)
    }
}
