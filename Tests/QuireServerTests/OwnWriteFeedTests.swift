import Foundation
import QuireServer
import QuireWire
import Testing

/// Promise 4, only changes travel: a device's pull does not bring its own write back in full.
@Suite struct OwnWriteFeedTests {
    @Test(arguments: StoreKind.allCases) func anIncrementalPullSparesTheWriterItsOwnPayloadButNotOthers(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let phone = try await harness.server.createAccount(username: "ann")
        let laptop = try await harness.server.openSession(username: "ann", deviceName: "laptop")
        let start = try await harness.changes(token: phone).nextCursor
        let id = ServerHarness.uuid()
        #expect(await harness.put(id, payload: "sealed-by-phone", base: nil, token: phone).status == 200)

        let own = try await harness.changes(token: phone, since: start)
        let other = try await harness.changes(token: laptop, since: start)

        #expect(own.changes.count == 1)
        #expect(own.changes.first?.payload == nil)
        #expect(own.changes.first?.ownWrite == true)
        #expect(own.changes.first?.version == 1)
        #expect(other.changes.first?.payload == "sealed-by-phone")
        #expect(other.changes.first?.ownWrite == nil)
        // The laptop edits it: now the phone gets the laptop's payload.
        #expect(await harness.put(id, payload: "sealed-by-laptop", base: 1, token: laptop).status == 200)
        let next = try await harness.changes(token: phone, since: own.nextCursor)
        #expect(next.changes.first?.payload == "sealed-by-laptop")
    }

    @Test(arguments: StoreKind.allCases) func everyPageOfAFullListingCarriesPayloadsEvenTheReadersOwn(store: StoreKind)
        async throws
    {
        let harness = try await ServerHarness(store: store)
        let phone = try await harness.server.createAccount(username: "ann")
        for index in 0..<5 {
            #expect(
                await harness.put(ServerHarness.uuid(), payload: "p\(index)", base: nil, token: phone).status == 200)
        }
        var page = try await harness.changes(token: phone, limit: 2)
        var payloads = page.changes.compactMap(\.payload)
        while page.hasMore {
            page = try await harness.changes(token: phone, since: page.nextCursor, limit: 2)
            payloads += page.changes.compactMap(\.payload)
        }
        #expect(payloads == ["p0", "p1", "p2", "p3", "p4"])
        // After the listing, the cursor is an ordinary incremental one again.
        #expect(await harness.put(ServerHarness.uuid(), payload: "p5", base: nil, token: phone).status == 200)
        let after = try await harness.changes(token: phone, since: page.nextCursor)
        #expect(after.changes.first?.ownWrite == true)
    }

    @Test(arguments: StoreKind.allCases) func aFirstListingAskedToOmitOwnPayloadsLeavesOutTheReadersOwnOnly(
        store: StoreKind
    ) async throws {
        let harness = try await ServerHarness(store: store)
        let phone = try await harness.server.createAccount(username: "ann")
        let laptop = try await harness.server.openSession(username: "ann", deviceName: "laptop")
        for index in 0..<3 {
            #expect(
                await harness.put(ServerHarness.uuid(), payload: "phone\(index)", base: nil, token: phone).status
                    == 200)
        }
        for index in 0..<2 {
            #expect(
                await harness.put(ServerHarness.uuid(), payload: "laptop\(index)", base: nil, token: laptop)
                    .status == 200)
        }

        // The phone's first listing, in pages of 2: the continuation pages keep the flag's effect.
        var page = try await harness.changes(token: phone, limit: 2, ownPayloads: "omit")
        var entries = page.changes
        while page.hasMore {
            page = try await harness.changes(token: phone, since: page.nextCursor, limit: 2, ownPayloads: "omit")
            entries += page.changes
        }

        #expect(entries.count == 5)
        let own = entries.filter { $0.ownWrite == true }
        #expect(own.count == 3)
        #expect(own.allSatisfy { $0.payload == nil && $0.versionTag != nil && $0.version == 1 })
        #expect(entries.compactMap(\.payload) == ["laptop0", "laptop1"])
        // Without the flag the same listing carries every payload, as before.
        let full = try await harness.changes(token: phone, limit: 10)
        #expect(full.changes.compactMap(\.payload).count == 5)
    }

    @Test func anUnknownOwnPayloadsValueIsRefused() async throws {
        let harness = try await ServerHarness(store: .sqlite)
        let phone = try await harness.server.createAccount(username: "ann")

        let response = await harness.changesResponse(token: phone, ownPayloads: "skip")

        #expect(response.status == 400)
        #expect(response.text.contains("invalid_request"))
        #expect(response.text.contains("ownPayloads"))
    }
}
