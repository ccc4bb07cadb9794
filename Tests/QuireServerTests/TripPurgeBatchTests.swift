import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13: deleted trip items are purged in bounded batches too, each its own transaction, so a
/// trip with thousands of tombstones never holds the store (and the trips' row locks) in one go.
struct TripPurgeBatchTests {
    @Test(arguments: StoreKind.allCases) func tripTombstonesArePurgedInBatchesOfTheSetSize(store: StoreKind)
        async throws
    {
        // Given 25 deleted items of one trip and 5 of another, a month and more ago, and batches of 10.
        let harness = try await ServerHarness(store: store, configuration: BackgroundWorkTests.configuration(batch: 10))
        let alice = try await harness.token("alice")
        var trips: [String] = []
        for count in [25, 5] {
            let trip = try await harness.newTrip(token: alice)
            let items = (0..<count).map { _ in ServerHarness.uuid() }
            _ = try await harness.ops(trip, items.map { TripValue.op($0, "title", "Stop") }, token: alice)
            _ = try await harness.ops(
                trip, items.enumerated().map { TripValue.deleted($1, true, base: $0 + 1) }, token: alice)
            trips.append(trip)
        }
        harness.clock.advance(by: BackgroundWorkTests.retention + 86_400)

        // When a pass runs.
        let report = try #require(
            try await harness.server.runBackgroundWork(
                olderThan: harness.clock.now.addingTimeInterval(-BackgroundWorkTests.retention)))

        // Then every item went, never more than 10 in one batch, and the trips answer as purged.
        #expect(report.tripTombstones == 30)
        #expect(report.largestBatch <= 10, "a batch purged \(report.largestBatch)")
        // One batch of notes, at least three of trips, one of sessions.
        #expect(report.batches >= 1 + 3 + 1, "\(report.batches) batches")
        let alice2 = try await harness.token("alice")
        for trip in trips {
            #expect(try await harness.snapshot(trip, token: alice2).fields.isEmpty)
            #expect(await harness.tripChangesResponse(trip, cursor: nil, token: alice2).status == 200)
        }
    }
}
