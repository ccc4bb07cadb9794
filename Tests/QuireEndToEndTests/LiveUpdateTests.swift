import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// Live updates through a real `quire-server` process: a device holding a long-poll open gets
/// another device's edit without any trigger of its own.
@Suite struct LiveUpdateTests {
    @Test func anEditOnOneDeviceWakesTheOtherThroughTheLongPoll() async throws {
        let root = try TemporaryDirectory(prefix: "quire-live")
        defer { root.remove() }
        let server = try await ServerProcess.start(databaseFile: root.path("server.sqlite"))
        defer { server.terminate() }
        let transport = URLSessionTransport(baseURL: server.url)
        let registered = try await AccountFlows.register(
            serverURL: server.url, username: "ann", password: "maple orbit lantern", deviceName: "phone",
            transport: transport
        ).session
        let phone = try QuireDevice(directory: root.path("phone"))
        try await phone.signIn(registered)
        let laptop = try QuireDevice(directory: root.path("laptop"))
        try await laptop.signIn(
            try await AccountFlows.login(
                serverURL: server.url, username: "ann", password: "maple orbit lantern", deviceName: "laptop",
                transport: transport))

        // The laptop runs by itself, with a long-poll held open for 25 s at a time; nothing else
        // would wake it for 5 minutes (the periodic fallback).
        let (controller, _) = try #require(try laptop.makeController(longPollWait: 25))
        await controller.start()
        #expect(await eventually { await controller.state.completedRuns >= 1 })

        let id = NoteID()
        try await phone.notes.save(id: id, title: "Live", body: "from the phone")
        let started = Date()
        #expect(try await phone.makeEngine()?.syncOnce().succeeded == true)
        let arrived = await eventually(timeout: 30) {
            for await notes in laptop.notes.notes() { return notes.contains { $0.id == id } }
            return false
        }
        let elapsed = Date().timeIntervalSince(started)
        await controller.stop()

        #expect(arrived)
        #expect(elapsed < 20, "took \(elapsed) s: the long-poll did not wake the laptop")
    }
}
