import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// `quire sync` says "received N": the notes another device changed that this one took in. A
/// device's own writes coming back in the feed change nothing here and are not counted (the
/// quick start's delete showed "sent 1, received 1" with nothing sent from anywhere else).
@Suite struct EngineReceivedCountTests {
    @Test func aDevicesOwnDeleteIsNotReceivedBack() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Trip", body: "pack")
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().received == 1)

        try await phone.delete(id)
        let report = await phone.sync()

        #expect(report.succeeded)
        #expect(report.pushed == 1)
        #expect(report.received == 0, "the phone's own delete came back from the feed")
        // The laptop, which did not make it, receives it.
        #expect(await laptop.sync().received == 1)
        #expect(try await laptop.note(id) == nil, "deleted on the laptop too")
    }

    @Test func anEditAfterOwnDeleteStillCountsWhatOthersSent() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let trip = try await phone.create(title: "Trip", body: "pack")
        let groceries = try await phone.create(title: "Groceries", body: "milk")
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().received == 2)

        // The phone deletes one note; the laptop edits the other: the phone receives only the edit.
        try await phone.delete(trip)
        try await laptop.edit(groceries, body: "milk\neggs")
        #expect(await laptop.sync().pushed == 1)
        let report = await phone.sync()

        #expect(report.succeeded)
        #expect(report.received == 1)
        #expect(try await phone.note(groceries)?.body == "milk\neggs")
    }
}
