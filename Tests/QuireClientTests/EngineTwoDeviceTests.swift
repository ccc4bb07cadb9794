import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// Two (or three) devices and one server, in process: the sync engine's promises end to end.
@Suite struct EngineTwoDeviceTests {
    @Test func noteCreatedOfflineReachesTheOtherDevice() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")

        let id = try await phone.create(title: "Groceries", body: "milk\neggs")
        #expect(try await phone.note(id)?.sync == .pending(changes: 1))
        let pushed = await phone.sync()
        #expect(pushed.succeeded)
        #expect(try await phone.note(id)?.sync == .synced)

        await laptop.sync()
        let received = try #require(try await laptop.note(id))
        #expect(received.title == "Groceries")
        #expect(received.body == "milk\neggs")
        #expect(received.sync == .synced)
    }

    @Test func sameLineChangedDifferentlyKeepsBothTextsAsOneCopyEverywhere() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Groceries", body: "milk\neggs")
        await phone.sync()
        await laptop.sync()

        try await phone.edit(id, body: "oat milk\neggs")
        try await laptop.edit(id, body: "soy milk\neggs")
        await phone.sync()
        let report = await laptop.sync()
        #expect(report.conflictCopies == 1)
        await laptop.sync()
        await phone.sync()

        for device in [phone, laptop] {
            let notes = await device.all()
            #expect(notes.count == 2)
            let original = try #require(notes.first { $0.id == id })
            let copy = try #require(notes.first { $0.conflictOf == id })
            #expect(original.body == "oat milk\neggs")
            #expect(copy.body == "soy milk\neggs")
            #expect(copy.title == "Groceries (conflict copy)")
            #expect(original.sync == .conflict)
        }
        #expect(await phone.contents() == laptop.contents())
    }

    @Test func titleEditedOnOneDeviceAndBodyOnTheOtherMergeWithoutACopy() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Groceries", body: "milk")
        await phone.sync()
        await laptop.sync()

        try await phone.edit(id, title: "Groceries (Sat)")
        try await laptop.edit(id, body: "milk\nbread")
        await phone.sync()
        let report = await laptop.sync()
        #expect(report.merged == 1)
        #expect(report.conflictCopies == 0)
        await phone.sync()

        for device in [phone, laptop] {
            let notes = await device.all()
            #expect(notes.count == 1)
            #expect(notes.first?.title == "Groceries (Sat)")
            #expect(notes.first?.body == "milk\nbread")
        }
    }

    @Test func anEditMadeAfterADeleteLandedBringsTheNoteBack() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Plans", body: "draft")
        await phone.sync()
        await laptop.sync()

        try await phone.delete(id)
        try await laptop.edit(id, body: "draft, with the laptop's new paragraph")
        await phone.sync()  // the delete lands first
        let report = await laptop.sync()  // the edit meets the tombstone
        #expect(report.editsBeatDeletes == 1)
        await laptop.sync()
        await phone.sync()

        for device in [phone, laptop] {
            let note = try #require(try await device.note(id))
            #expect(note.body == "draft, with the laptop's new paragraph")
        }
    }

    @Test func aDeleteMadeAfterAnEditLandedLosesToTheEdit() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Plans", body: "draft")
        await phone.sync()
        await laptop.sync()

        try await laptop.edit(id, body: "draft v2")
        try await phone.delete(id)
        await laptop.sync()  // the edit lands first
        let report = await phone.sync()  // the delete meets the newer version
        #expect(report.editsBeatDeletes == 1)
        await laptop.sync()

        for device in [phone, laptop] {
            #expect(try await device.note(id)?.body == "draft v2")
        }
    }

    @Test func deletesReachTheOtherDevice() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Old", body: "x")
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.note(id) != nil)

        try await phone.delete(id)
        #expect(try await phone.note(id) == nil)
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.note(id) == nil)
    }

    @Test func bothDeletingTheSameNoteIsNoConflict() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Old", body: "x")
        await phone.sync()
        await laptop.sync()

        try await phone.delete(id)
        try await laptop.delete(id)
        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        #expect(report.succeeded)
        #expect(report.conflictCopies == 0)
        #expect(await laptop.all().isEmpty)
        #expect(await phone.all().isEmpty)
    }

    @Test func aNotesEditsArriveInOrderAndOnlyTheLatestTextTravelsWhenFolded() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let id = try await phone.create(title: "Log", body: "1")
        for step in 2...5 { try await phone.edit(id, body: (1...step).map(String.init).joined(separator: "\n")) }
        // Five saves before any sync fold into one change: one PUT.
        let report = await phone.sync()
        #expect(report.pushed == 1)
        #expect(phone.transport.delivered.filter { $0.hasPrefix("PUT") }.count == 1)

        try await phone.edit(id, body: "1\n2\n3\n4\n5\n6")
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.note(id)?.body == "1\n2\n3\n4\n5\n6")
    }
}
