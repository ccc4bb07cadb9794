import Foundation
import QuireTestSupport
import Testing

/// The `quire` binary on two devices, syncing through a real `quire-server` process on loopback.
@Suite struct TwoDevicesThroughARealServerTests {
    struct Setup {
        let root: TemporaryDirectory
        let server: ServerProcess
        let phone: CLIDevice
        let laptop: CLIDevice

        init() throws {
            root = try TemporaryDirectory(prefix: "quire-e2e")
            let database = root.path("server.sqlite")
            let token = try ServerProcess.addAccount("alice", databaseFile: database)
            server = try ServerProcess(databaseFile: database)
            phone = CLIDevice(root, "phone")
            laptop = CLIDevice(root, "laptop")
            for device in [phone, laptop] {
                try device.ok("remote", server.url.absoluteString, "--token", token)
            }
        }

        func tearDown() {
            server.stop()
            root.remove()
        }
    }

    @Test func aNoteWrittenOfflineOnOneDeviceReachesTheOther() throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let id = try setup.phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try setup.phone.ok("edit", id, "--body", "milk\neggs\nbread")
        #expect(try setup.phone.notes().first?.state == "pending")
        #expect(try setup.phone.ok("ls").contains("[not synced]"))

        try setup.phone.ok("sync")
        #expect(try setup.phone.notes().first?.state == "synced")
        try setup.laptop.ok("sync")
        let notes = try setup.laptop.notes()
        #expect(notes == [CLINote(id: id, title: "Groceries", body: "milk\neggs\nbread", state: "synced", conflictOf: nil)])
    }

    @Test func concurrentEditsLoseNoTextAndBothDevicesConverge() throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let id = try setup.phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try setup.phone.ok("sync")
        try setup.laptop.ok("sync")

        try setup.phone.ok("edit", id, "--body", "oat milk\neggs")
        try setup.laptop.ok("edit", id, "--body", "whole milk\neggs")
        try setup.phone.ok("sync")
        try setup.laptop.ok("sync")
        try setup.phone.ok("sync")

        let phoneNotes = try setup.phone.notes().sorted { $0.id < $1.id }
        let laptopNotes = try setup.laptop.notes().sorted { $0.id < $1.id }
        #expect(phoneNotes.map(\.body).sorted() == laptopNotes.map(\.body).sorted())
        #expect(phoneNotes.map(\.id) == laptopNotes.map(\.id))
        let bodies = Set(phoneNotes.map(\.body))
        #expect(bodies.contains("oat milk\neggs"))
        #expect(bodies.contains("whole milk\neggs"))
        #expect(phoneNotes.filter { $0.conflictOf == id }.count == 1)

        // Keep mine on the laptop: the original takes the laptop's text everywhere.
        try setup.laptop.ok("resolve", id, "--keep", "mine")
        try setup.laptop.ok("sync")
        try setup.phone.ok("sync")
        for device in [setup.phone, setup.laptop] {
            let notes = try device.notes()
            #expect(notes.count == 1)
            #expect(notes.first?.body == "whole milk\neggs")
        }
    }

    @Test func aDeleteOnOneDeviceLosesToAnEditOnTheOther() throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let id = try setup.phone.ok("new", "--title", "Trip", "--body", "pack")
        try setup.phone.ok("sync")
        try setup.laptop.ok("sync")

        try setup.phone.ok("rm", id)
        try setup.laptop.ok("edit", id, "--body", "pack the charger")
        try setup.phone.ok("sync")
        try setup.laptop.ok("sync")
        try setup.phone.ok("sync")
        for device in [setup.phone, setup.laptop] {
            #expect(try device.notes().map(\.body) == ["pack the charger"])
        }
    }

    @Test func syncWhileTheServerIsDownFailsClearlyAndKeepsEverything() throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let id = try setup.phone.ok("new", "--title", "Offline", "--body", "typed with no server")
        setup.server.stop()
        let result = try setup.phone.run("sync")
        #expect(result.exitCode == 69)
        #expect(result.stderr.contains("sync failed"))
        #expect(result.stderr.contains("1 change(s) stay queued"))
        #expect(try setup.phone.notes().map(\.id) == [id])
        let status = try setup.phone.ok("status")
        #expect(status.contains("failed"))
    }
}
