import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// A changes page stops at a byte budget as well as at `limit` notes, and says `hasMore`
/// (issue 12, limits 4: one `limit=100` page of 4 MiB notes was a 419 MB body).
struct ChangesPageBudgetTests {
    @Test func aPageStopsAtItsByteBudgetAndTheNextPageBringsTheRest() async throws {
        var configuration = ServerHarness.configuration
        configuration.changesPageBytes = 250_000
        let harness = try ServerHarness(configuration: configuration)
        let alice = try await harness.token("alice")
        let payload = String(repeating: "A", count: 100_000)
        var ids: [String] = []
        for _ in 0..<3 {
            let id = ServerHarness.uuid()
            #expect(await harness.put(id, payload: payload, base: nil, token: alice).status == 200)
            ids.append(id)
        }

        let first = try await harness.changes(token: alice, limit: 100)
        let second = try await harness.changes(token: alice, since: first.nextCursor, limit: 100)

        let (firstIDs, firstHasMore) = (first.changes.map(\.id), first.hasMore)
        let (secondIDs, secondHasMore) = (second.changes.map(\.id), second.hasMore)
        #expect(firstIDs.count == 2)
        #expect(firstHasMore)
        #expect(secondIDs == [ids[2]])
        #expect(!secondHasMore)
        #expect(Set(firstIDs + secondIDs) == Set(ids))
    }

    @Test func oneNoteOverTheBudgetStillComesAlone() async throws {
        var configuration = ServerHarness.configuration
        configuration.changesPageBytes = 50_000
        let harness = try ServerHarness(configuration: configuration)
        let alice = try await harness.token("alice")
        let payload = String(repeating: "A", count: 100_000)
        for _ in 0..<2 {
            #expect(await harness.put(ServerHarness.uuid(), payload: payload, base: nil, token: alice).status == 200)
        }

        let first = try await harness.changes(token: alice, limit: 100)
        let second = try await harness.changes(token: alice, since: first.nextCursor, limit: 100)

        let (firstCount, firstHasMore) = (first.changes.count, first.hasMore)
        let (secondCount, secondHasMore) = (second.changes.count, second.hasMore)
        #expect(firstCount == 1 && firstHasMore)
        #expect(secondCount == 1 && !secondHasMore)
    }
}
