import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// Promise 4: after a push, a device does not pull its own write back when nothing else changed.
@Suite struct EngineFeedChainTests {
    @Test func aPushWithNothingElseChangedNeedsNoPull() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let id = try await phone.create(title: "Log", body: "1")
        await phone.sync()  // the first sync pulls: the device has no cursor yet
        let before = phone.transport.delivered.count

        try await phone.edit(id, body: "1\n2")
        try await phone.create(title: "Another", body: "x")
        #expect(await phone.sync().pushed == 2)

        // Both changes went in one batch, and nothing was pulled.
        let requests = Array(phone.transport.delivered.dropFirst(before))
        #expect(requests == ["POST /v1/notes/batch"], "\(requests)")
    }

    @Test func anotherDevicesWriteInBetweenIsStillPulled() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Shared", body: "a")
        await phone.sync()
        await laptop.sync()

        let fromLaptop = try await laptop.create(title: "From the laptop", body: "b")
        await laptop.sync()
        try await phone.edit(id, body: "a\nc")
        let before = phone.transport.delivered.count
        await phone.sync()

        // The put's answer shows a change the phone has not seen: it pulls.
        #expect(phone.transport.delivered.dropFirst(before).contains { $0.hasPrefix("GET") })
        #expect(try await phone.note(fromLaptop)?.body == "b")
        await laptop.sync()
        #expect(await phone.contents() == laptop.contents())
    }
}
