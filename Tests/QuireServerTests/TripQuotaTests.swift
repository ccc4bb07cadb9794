import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// Issue 12, item 8, for trips: an account cannot fill the server through trips, which the
/// notes' quota does not see. Owned trips and each trip's bytes are bounded (``TripQuota``); a
/// refusal stores and records nothing, so the same request passes once there is room.
struct TripQuotaTests {
    static func harness(_ store: StoreKind, _ quota: TripQuota) async throws -> ServerHarness {
        var configuration = ServerHarness.configuration
        configuration.tripQuota = quota
        return try await ServerHarness(store: store, configuration: configuration)
    }

    /// A plaintext whose sealed value is `bytes` long (TripValue seals as base64 of "sealed:…").
    static func plain(sealedBytes bytes: Int) -> String {
        String(repeating: "x", count: bytes / 4 * 3 - "sealed:".utf8.count)
    }

    @Test(arguments: StoreKind.allCases) func anAccountOwnsAtMostItsTripsAndADeletedOneFreesItsPlace(store: StoreKind)
        async throws
    {
        let harness = try await Self.harness(store, TripQuota(maxOwnedTrips: 2))
        let alice = try await harness.token("alice")
        let first = try await harness.newTrip(token: alice)
        _ = try await harness.newTrip(token: alice)

        let third = ServerHarness.uuid()
        let refused = await harness.putTrip(third, token: alice)
        #expect(refused.status == 403 && refused.errorCode == "quota_exceeded", "\(refused.text)")
        #expect(refused.text.contains("owns its most trips (2)"), "\(refused.text)")
        // Another account is not held back by alice's trips; a trip alice has still answers.
        #expect(await harness.putTrip(ServerHarness.uuid(), token: try await harness.token("bob")).status == 201)
        #expect(await harness.putTrip(first, token: alice).status == 200)

        _ = try await harness.ops(first, [TripValue.deleted(nil, true, base: 0)], token: alice)
        #expect(await harness.putTrip(third, token: alice).status == 201)
    }

    @Test(arguments: StoreKind.allCases) func opsPastTheTripsBytesAreRefusedUnrecordedAndPassOnceThereIsRoom(
        store: StoreKind
    ) async throws {
        let harness = try await Self.harness(store, TripQuota(maxBytesPerTrip: 2_000))
        let alice = try await harness.token("alice")
        let trip = try await harness.newTrip(token: alice)
        let (lunch, dinner, museum) = (ServerHarness.uuid(), ServerHarness.uuid(), ServerHarness.uuid())
        let big = Self.plain(sealedBytes: 800)
        _ = try await harness.ops(trip, [TripValue.op(lunch, "notes", big)], token: alice)
        _ = try await harness.ops(trip, [TripValue.op(dinner, "notes", big)], token: alice)

        // 2,400 bytes would pass 2,000: refused whole, nothing stored.
        let opID = ServerHarness.uuid()
        let refused = await harness.opsResponse(trip, [TripValue.op(museum, "notes", big)], opID: opID, token: alice)
        #expect(refused.status == 403 && refused.errorCode == "quota_exceeded", "\(refused.text)")
        #expect(refused.text.contains("This trip holds its most bytes"), "\(refused.text)")
        #expect(try await harness.snapshot(trip, token: alice).fields.allSatisfy { $0.item != museum })

        // An edit that shrinks the trip always passes; then the same request, same op id, fits.
        _ = try await harness.ops(trip, [TripValue.op(lunch, "notes", "short", base: 1)], token: alice)
        let retried = await harness.opsResponse(trip, [TripValue.op(museum, "notes", big)], opID: opID, token: alice)
        #expect(retried.status == 200, "\(retried.text)")
        #expect(retried.headers["Idempotent-Replayed"] == nil, "the refusal was not recorded")
        #expect(try await harness.snapshot(trip, token: alice).fields.contains { $0.item == museum })
    }

    @Test(arguments: StoreKind.allCases) func purgingADeletedItemFreesItsBytes(store: StoreKind) async throws {
        var configuration = BackgroundWorkTests.configuration(batch: 10)
        configuration.tripQuota = TripQuota(maxBytesPerTrip: 2_000)
        let harness = try await ServerHarness(store: store, configuration: configuration)
        let alice = try await harness.token("alice")
        let trip = try await harness.newTrip(token: alice)
        let (lunch, dinner) = (ServerHarness.uuid(), ServerHarness.uuid())
        let big = Self.plain(sealedBytes: 1_200)
        _ = try await harness.ops(trip, [TripValue.op(lunch, "notes", big)], token: alice)
        _ = try await harness.ops(trip, [TripValue.deleted(lunch, true, base: 1)], token: alice)
        // The tombstone still holds the deleted item's values until it is purged.
        #expect(await harness.opsResponse(trip, [TripValue.op(dinner, "notes", big)], token: alice).status == 403)

        harness.clock.advance(by: BackgroundWorkTests.retention + 86_400)
        _ = try await harness.server.runBackgroundWork(
            olderThan: harness.clock.now.addingTimeInterval(-BackgroundWorkTests.retention))

        let alice2 = try await harness.token("alice")
        #expect(await harness.opsResponse(trip, [TripValue.op(dinner, "notes", big)], token: alice2).status == 200)
    }
}
