import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// Issue 3's scenarios on three devices: concurrent edits merge when they can, and a real clash
/// leaves exactly one conflict copy everywhere, which any device can resolve for all.
@Suite struct EngineThreeDeviceConflictTests {
    struct Trio {
        let cluster: SyncCluster
        let phone: ClusterDevice
        let laptop: ClusterDevice
        let tablet: ClusterDevice
        var all: [ClusterDevice] { [phone, laptop, tablet] }

        init() async throws {
            cluster = try await SyncCluster()
            phone = try await cluster.addDevice("phone")
            laptop = try await cluster.addDevice("laptop")
            tablet = try await cluster.addDevice("tablet")
        }

        /// Syncs every device twice round, so each has seen everyone's last change.
        func settle() async {
            for _ in 0..<2 { for device in all { await device.sync() } }
        }

        /// Every device holds the same notes.
        func converged() async -> Bool {
            let first = await phone.contents()
            for device in all where await device.contents() != first { return false }
            return true
        }
    }

    @Test func theGroceriesScenarioMergesAPhoneAndALaptopEdit() async throws {
        let trio = try await Trio()
        defer { trio.cluster.remove() }
        let id = try await trio.phone.create(title: "Groceries", body: "milk\nbread\n")
        await trio.settle()

        // Seed 000: the phone syncs first; the laptop's edit of the same base then gets 409.
        try await trio.phone.edit(id, body: "milk\nbread\neggs\n")
        try await trio.laptop.edit(id, body: "oat milk\nbread\n")
        await trio.phone.sync()
        let report = await trio.laptop.sync()
        #expect(report.merged == 1)
        #expect(report.conflictCopies == 0)
        await trio.settle()

        #expect(await trio.converged())
        #expect(try await trio.tablet.note(id)?.body == "oat milk\nbread\neggs\n")
        #expect(await trio.tablet.all().count == 1)
    }

    @Test func allThreeAppendingToOneListMergeWithoutACopy() async throws {
        let trio = try await Trio()
        defer { trio.cluster.remove() }
        let id = try await trio.phone.create(title: "Packing", body: "passport\n")
        await trio.settle()

        try await trio.phone.edit(id, body: "passport\ncharger\n")
        try await trio.laptop.edit(id, body: "passport\nsunscreen\n")
        try await trio.tablet.edit(id, body: "passport\nbooks\n")
        await trio.settle()

        #expect(await trio.converged())
        let notes = await trio.phone.all()
        #expect(notes.count == 1)
        let lines = Set((notes.first?.body ?? "").split(separator: "\n").map(String.init))
        #expect(lines == ["passport", "charger", "sunscreen", "books"])
    }

    @Test func aRealClashMakesExactlyOneCopyOnEveryDevice() async throws {
        let trio = try await Trio()
        defer { trio.cluster.remove() }
        let id = try await trio.phone.create(title: "Meeting", body: "Room 4\nAgenda: budget\n")
        await trio.settle()

        try await trio.phone.edit(id, body: "Room 7\nAgenda: budget\n")
        try await trio.laptop.edit(id, body: "Room 9\nAgenda: budget\n")
        await trio.settle()

        #expect(await trio.converged())
        for device in trio.all {
            let notes = await device.all()
            #expect(notes.count == 2)
            #expect(notes.filter { $0.conflictOf == id }.count == 1)
            #expect(Set(notes.map(\.body)) == ["Room 7\nAgenda: budget\n", "Room 9\nAgenda: budget\n"])
        }
    }

    @Test(arguments: ConflictChoice.allCases)
    func eachResolutionReachesTheOtherDevices(_ choice: ConflictChoice) async throws {
        let trio = try await Trio()
        defer { trio.cluster.remove() }
        let id = try await trio.phone.create(title: "Plan", body: "Saturday\n")
        await trio.settle()
        try await trio.phone.edit(id, body: "Sunday\n")
        try await trio.laptop.edit(id, body: "Monday\n")
        await trio.settle()
        let copy = try #require(await trio.tablet.all().first { $0.conflictOf == id })

        try await trio.tablet.database.resolveConflict(copy: copy.id, keep: choice)
        await trio.settle()

        #expect(await trio.converged())
        let notes = await trio.phone.all()
        #expect(notes.allSatisfy { $0.conflictOf == nil })
        #expect(notes.allSatisfy { $0.sync == .synced })
        let original = try #require(notes.first { $0.id == id })
        switch choice {
        case .mine:
            #expect(notes.count == 1)
            #expect(original.body == copy.body)
            #expect(original.title == "Plan")
        case .theirs:
            #expect(notes.count == 1)
            #expect(original.body != copy.body)
        case .both:
            #expect(notes.count == 2)
            #expect(Set(notes.map(\.body)) == ["Sunday\n", "Monday\n"])
        }
    }

    @Test func aResendAfterALostReplyMakesNoCopy() async throws {
        let trio = try await Trio()
        defer { trio.cluster.remove() }
        let id = try await trio.phone.create(title: "Notes", body: "a\n")
        await trio.settle()
        try await trio.phone.edit(id, body: "a\nb\n")
        trio.phone.transport.enqueue(.dropReply)
        #expect(await !trio.phone.sync().succeeded)
        await trio.settle()
        #expect(await trio.converged())
        #expect(await trio.tablet.all().count == 1)
        #expect(try await trio.tablet.note(id)?.body == "a\nb\n")
    }
}
