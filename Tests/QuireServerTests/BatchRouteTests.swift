import Foundation
import QuireServer
import QuireWire
import Testing

/// `POST /v1/notes/batch`: several changes, one transaction, each with its single route's rules.
@Suite struct BatchRouteTests {
    private func post(_ harness: ServerHarness, _ changes: [BatchChangeDTO], token: String) async -> HTTPResponse {
        await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.batch, headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(BatchRequestDTO(changes: changes))))
    }

    private func results(_ response: HTTPResponse) throws -> [BatchResultDTO] {
        try #require(response.status == 200, "\(response.status): \(response.text)")
        return try WireJSON.decoder().decode(BatchResponseDTO.self, from: response.body).results
    }

    @Test(arguments: StoreKind.allCases) func eachChangeIsAnsweredAsItsSingleRouteWouldBe(store: StoreKind) async throws
    {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.server.createAccount(username: "ann")
        let existing = ServerHarness.uuid()
        #expect(await harness.put(existing, payload: "v1", base: nil, token: token).status == 200)
        let fresh = ServerHarness.uuid()

        let answers = try results(
            await post(
                harness,
                [
                    BatchChangeDTO(op: "put", id: fresh, idempotencyKey: "k1", payload: "new", baseVersion: nil),
                    BatchChangeDTO(op: "put", id: existing, idempotencyKey: "k2", payload: "stale", baseVersion: 7),
                    BatchChangeDTO(
                        op: "delete", id: ServerHarness.uuid(), idempotencyKey: "k3", payload: nil, baseVersion: 1),
                ], token: token))

        #expect(answers.map(\.status) == [200, 409, 404])
        #expect(answers[0].version == 1)
        #expect(answers[0].cursor != nil && answers[0].previousCursor != nil)
        #expect(answers[1].note?.payload == "v1")
        #expect(answers[2].error?.code == "not_found")
    }

    @Test(arguments: StoreKind.allCases) func aChangeSentInABatchAndResentAloneGetsItsFirstAnswer(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.server.createAccount(username: "ann")
        let id = ServerHarness.uuid()
        let item = BatchChangeDTO(op: "put", id: id, idempotencyKey: "change-1", payload: "text", baseVersion: nil)
        let first = try results(await post(harness, [item], token: token))
        // The batch again, and the same change on its single route: answered, not applied again.
        let again = try results(await post(harness, [item], token: token))
        let alone = await harness.put(id, payload: "text", base: nil, token: token, key: "change-1")
        #expect(first.map(\.replayed) == [nil])
        #expect(again.map(\.replayed) == [true])
        var replay = again
        replay[0].replayed = nil
        #expect(first == replay)
        #expect(alone.status == 200)
        #expect(alone.headers["Idempotent-Replayed"] == "true")
        #expect(try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: alone.body).version == 1)
        // The same key with another text is refused, in a batch too.
        let reused = try results(
            await post(
                harness,
                [BatchChangeDTO(op: "put", id: id, idempotencyKey: "change-1", payload: "other", baseVersion: nil)],
                token: token))
        #expect(reused.first?.status == 422)
    }

    /// A batch's changes follow each other in the account's feed: each saved change's previous
    /// position is the one before it, whether the store read it (the first change, the one after
    /// a delete) or knew it from the change before it in the same transaction.
    @Test(arguments: StoreKind.allCases) func eachSavedChangeFollowsTheOneBeforeItInTheFeed(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.server.createAccount(username: "ann")
        let before = ServerHarness.uuid()
        let saved = await harness.put(before, payload: "v1", base: nil, token: token)
        let beforeCursor = try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: saved.body).cursor

        let answers = try results(
            await post(
                harness,
                [
                    BatchChangeDTO(
                        op: "put", id: ServerHarness.uuid(), idempotencyKey: "k1", payload: "one", baseVersion: nil),
                    BatchChangeDTO(op: "delete", id: before, idempotencyKey: "k2", payload: nil, baseVersion: 1),
                    BatchChangeDTO(
                        op: "put", id: ServerHarness.uuid(), idempotencyKey: "k3", payload: "two", baseVersion: nil),
                    BatchChangeDTO(
                        op: "put", id: ServerHarness.uuid(), idempotencyKey: "k4", payload: "three", baseVersion: nil),
                    BatchChangeDTO(op: "put", id: before, idempotencyKey: "k5", payload: "stale", baseVersion: 1),
                    BatchChangeDTO(
                        op: "put", id: ServerHarness.uuid(), idempotencyKey: "k6", payload: "four", baseVersion: nil),
                ], token: token))
        let after = await harness.put(ServerHarness.uuid(), payload: "five", base: nil, token: token)
        let afterPrevious = try WireJSON.decoder().decode(PutNoteResponseDTO.self, from: after.body).previousCursor

        #expect(answers.map(\.status) == [200, 204, 200, 200, 409, 200])
        #expect(beforeCursor != nil && answers[0].previousCursor == beforeCursor)
        // The delete took a position of its own: the next change follows it, not the first put.
        #expect(answers[2].previousCursor != nil && answers[2].previousCursor != answers[0].cursor)
        #expect(answers[3].previousCursor == answers[2].cursor)
        // A conflict changes nothing in the feed.
        #expect(answers[5].previousCursor == answers[3].cursor)
        #expect(afterPrevious == answers[5].cursor)
    }

    @Test(
        arguments: StoreKind.allCases,
        [
            #"{"changes": []}"#, #"{"changes": [{"op": "patch", "id": "x", "idempotencyKey": "k"}]}"#, "not json",
            #"{"changes": [{"op": "delete", "id": "6f1c7c53-3b8e-4c5e-9d4a-1b2c3d4e5f60", "idempotencyKey": "k"}]}"#,
        ])
    func aMalformedBatchIsRefusedWholeAndStoresNothing(store: StoreKind, _ body: String) async throws {
        let harness = try await ServerHarness(store: store)
        let token = try await harness.server.createAccount(username: "ann")
        let before = try await harness.everything(token: token)
        let response = await harness.server.handle(
            HTTPRequest(
                method: "POST", path: WireRoutes.batch, headers: ["Authorization": "Bearer \(token)"],
                body: Data(body.utf8)))
        #expect(response.status == 400)
        #expect(try await harness.everything(token: token) == before)
    }
}
