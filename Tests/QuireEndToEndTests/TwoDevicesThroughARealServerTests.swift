import Foundation
import QuireTestSupport
import Testing

/// The `quire` binary on two devices, syncing through a real `quire-server` process on loopback.
@Suite struct TwoDevicesThroughARealServerTests {
    @Test func aNoteWrittenOfflineOnOneDeviceReachesTheOther() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try await setup.phone.ok("edit", id, "--body", "milk\neggs\nbread")
        #expect(try await setup.phone.notes().first?.state == "pending")
        #expect(try await setup.phone.ok("ls").contains("[not synced]"))

        try await setup.phone.ok("sync")
        #expect(try await setup.phone.notes().first?.state == "synced")
        try await setup.laptop.ok("sync")
        let notes = try await setup.laptop.notes()
        #expect(
            notes == [CLINote(id: id, title: "Groceries", body: "milk\neggs\nbread", state: "synced", conflictOf: nil)])
    }

    @Test func concurrentEditsLoseNoTextAndBothDevicesConverge() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Groceries", "--body", "milk\neggs")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")

        try await setup.phone.ok("edit", id, "--body", "oat milk\neggs")
        try await setup.laptop.ok("edit", id, "--body", "whole milk\neggs")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")

        let phoneNotes = try await setup.phone.notes().sorted { $0.id < $1.id }
        let laptopNotes = try await setup.laptop.notes().sorted { $0.id < $1.id }
        #expect(phoneNotes.map(\.body).sorted() == laptopNotes.map(\.body).sorted())
        #expect(phoneNotes.map(\.id) == laptopNotes.map(\.id))
        let bodies = Set(phoneNotes.map(\.body))
        #expect(bodies.contains("oat milk\neggs"))
        #expect(bodies.contains("whole milk\neggs"))
        #expect(phoneNotes.filter { $0.conflictOf == id }.count == 1)

        // Keep mine on the laptop: the original takes the laptop's text everywhere.
        try await setup.laptop.ok("resolve", id, "--keep", "mine")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in [setup.phone, setup.laptop] {
            let notes = try await device.notes()
            #expect(notes.count == 1)
            #expect(notes.first?.body == "whole milk\neggs")
        }
    }

    @Test func aDeleteOnOneDeviceLosesToAnEditOnTheOther() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Trip", "--body", "pack")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")

        try await setup.phone.ok("rm", id)
        try await setup.laptop.ok("edit", id, "--body", "pack the charger")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in [setup.phone, setup.laptop] {
            #expect(try await device.notes().map(\.body) == ["pack the charger"])
        }
    }

    @Test func syncWhileTheServerIsDownFailsClearlyAndKeepsEverything() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Offline", "--body", "typed with no server")
        await setup.server.stop()
        let result = try await setup.phone.run("sync")
        #expect(result.exitCode == 69)
        #expect(result.stderr.contains("sync failed"))
        #expect(result.stderr.contains("1 change(s) stay queued"))
        #expect(try await setup.phone.notes().map(\.id) == [id])
        let status = try await setup.phone.ok("status")
        #expect(status.contains("failed"))
    }

    @Test func theServerStoresNoNoteTextAndNoKey() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        try await setup.phone.ok("new", "--title", "Diary zebra-title", "--body", "secret quokka-body")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")
        #expect(try await setup.laptop.notes().map(\.body) == ["secret quokka-body"])
        await setup.server.stop()  // flushes its WAL into the database file

        var bytes = Data()
        let files = try FileManager.default.contentsOfDirectory(
            at: setup.root.url, includingPropertiesForKeys: nil
        ).filter { $0.lastPathComponent.hasPrefix("server.sqlite") }
        for file in files { bytes += try Data(contentsOf: file) }
        #expect(!bytes.isEmpty)
        for secret in ["zebra-title", "quokka-body", "correct horse"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "server files contain \(secret)")
        }
        // Nor the notes key: the device's session file holds it; the server only a wrapped copy.
        let session =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: setup.phone.directory.appendingPathComponent("session.json"))) as? [String: Any]
        let notesKey = try #require((session?["notesKey"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(bytes.range(of: notesKey) == nil)
    }

    @Test func aPasswordChangeSignsTheOtherDeviceOutAndLosesNothing() async throws {
        let setup = try await TwoCLIDevices()
        defer { setup.tearDown() }
        let id = try await setup.phone.ok("new", "--title", "Plans", "--body", "v1")
        try await setup.phone.ok("sync")
        try await setup.laptop.ok("sync")

        try await setup.phone.ok("passwd", "--password-stdin", stdin: "correct horse\nnew staple\n")
        try await setup.laptop.ok("edit", id, "--body", "v2 typed on the laptop")
        let refused = try await setup.laptop.run("sync")
        #expect(refused.exitCode == 77)
        #expect(try await setup.laptop.notes().first?.body == "v2 typed on the laptop")
        #expect(try await setup.laptop.ok("status").contains("signed out"))

        let oldPassword = try await setup.laptop.run(
            "login", setup.server.url.absoluteString, "alice", "--password-stdin", stdin: "correct horse\n")
        #expect(oldPassword.exitCode == 77)
        try await setup.laptop.ok(
            "login", setup.server.url.absoluteString, "alice", "--password-stdin", stdin: "new staple\n")
        try await setup.laptop.ok("sync")
        try await setup.phone.ok("sync")
        for device in [setup.phone, setup.laptop] {
            #expect(try await device.notes().map(\.body) == ["v2 typed on the laptop"])
        }
    }
}
