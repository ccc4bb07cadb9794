import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// Two devices of one account and the in-memory trips server (seed 002 §3, §5, §7): explicit
/// edits, explicit syncs, no sleeps.
@Suite struct TripTwoDeviceTests {
    /// A trip "Lisbon" with one item "Lunch" (order "a"), made on the phone and synced to both.
    static func lisbonOnBoth(_ cluster: TripsCluster) async throws -> (TripsDevice, TripsDevice, TripID, ItemID) {
        let phone = try cluster.addDevice("phone")
        let laptop = try cluster.addDevice("laptop")
        let trip = try await phone.database.createTrip(title: "Lisbon", startDate: LocalDate("2027-06-09"))
        let lunch = try await phone.database.addItem(to: trip, [.title: "Lunch", .kind: "meal", .order: "a"])
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.itinerary(trip) == ["Lunch@a"])
        return (phone, laptop, trip, lunch)
    }

    @Test func aRenameAndATimeAndNoteChangeMadeOfflineBothSurviveOnBothDevices() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await Self.lisbonOnBoth(cluster)

        // Both offline: one renames, the other changes the time and adds a note.
        try await phone.database.editItem(lunch, [.title: "Lunch at Time Out Market"])
        try await laptop.database.editItem(lunch, [.start: Lisbon.halfPastTwelve, .notes: "book ahead"])
        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        #expect(report.succeeded)
        #expect(report.fieldConflicts == 0)
        #expect(await phone.sync().succeeded)

        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(item.title == "Lunch at Time Out Market")
            #expect(item.start?.fieldValue == Lisbon.halfPastTwelve)
            #expect(item.notes == "book ahead")
            #expect(!item.hasPendingChanges)
            #expect(try await device.database.conflicts().isEmpty)
            #expect(try await device.trip(trip)?.title == "Lisbon")
        }
    }

    @Test(arguments: [TripConflictChoice.mine, .theirs])
    func bothChangingTheTimeDifferentlyIsOneConflictResolvedEitherWay(_ choice: TripConflictChoice) async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.start: Lisbon.halfPastTwelve])
        try await laptop.database.editItem(lunch, [.start: Lisbon.one])

        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        #expect(report.fieldConflicts == 1)

        // The laptop shows the phone's time, and keeps its own in view: "Keep mine?"
        let conflicted = try #require(try await laptop.item(lunch))
        #expect(conflicted.start?.fieldValue == Lisbon.halfPastTwelve)
        let conflict = try #require(conflicted.fields[.start]?.conflict)
        #expect(conflict.mine == Lisbon.one)
        #expect(conflict.theirs == Lisbon.halfPastTwelve)
        #expect(try await laptop.database.conflicts() == [conflict])
        #expect(try await laptop.trip(trip)?.conflicts.count == 1)
        #expect(try await phone.database.conflicts().isEmpty)

        try await laptop.database.resolveConflict(trip: trip, item: lunch, field: .start, keep: choice)
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        let expected = choice == .mine ? Lisbon.one : Lisbon.halfPastTwelve
        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(item.start?.fieldValue == expected)
            #expect(!item.hasConflict)
            #expect(!item.hasPendingChanges)
        }
    }

    @Test func aDeleteWinsOverAnEditAndTheEditorRestoresTheItemWithItsEdits() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.deleteItem(lunch)
        try await laptop.database.editItem(lunch, [.notes: "book ahead", .location: "Time Out Market"])

        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        #expect(report.fieldConflicts == 2)

        // The delete won: the item is gone from the list, and the edit waits to be restored.
        let record = try #require(try await laptop.trip(trip))
        #expect(record.items.isEmpty)
        #expect(record.deletedItemsWithConflicts.map(\.id) == [lunch])
        let conflict = try #require(try await laptop.database.conflicts().first)
        #expect(conflict.isDeletedWhileEdited)
        #expect(conflict.editedValues == [.notes: "book ahead", .location: "Time Out Market"])
        #expect(try await phone.itinerary(trip) == [])

        try await laptop.database.restoreItem(lunch)
        #expect(try await laptop.itinerary(trip) == ["Lunch@a"])
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(!item.isDeleted)
            #expect(item.title == "Lunch")
            #expect(item.notes == "book ahead")
            #expect(item.location == "Time Out Market")
            #expect(try await device.database.conflicts().isEmpty)
        }
    }

    @Test func keepingTheirsLetsTheDeleteStand() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.deleteItem(lunch)
        try await laptop.database.editItem(lunch, [.notes: "book ahead"])
        await phone.sync()
        await laptop.sync()

        try await laptop.database.resolveConflict(trip: trip, item: lunch, field: .deleted, keep: .theirs)
        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.trip(trip)?.deletedItemsWithConflicts.isEmpty == true)
        #expect(try await laptop.item(lunch)?.isDeleted == true)
        #expect(try await laptop.database.statusRowNow().pendingCount == 0)
    }

    @Test func concurrentInsertsAtOneSpotOrderTheSameOnBothDevices() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, _) = try await Self.lisbonOnBoth(cluster)
        // Both insert after "Lunch" offline and pick the same key.
        try await phone.database.addItem(to: trip, [.title: "Museum", .order: "m"])
        try await laptop.database.addItem(to: trip, [.title: "Tram 28", .order: "m"])
        try await laptop.database.addItem(to: trip, [.title: "Dinner", .order: "t"])
        await phone.sync()
        await laptop.sync()
        await phone.sync()

        let order = try await phone.itinerary(trip)
        #expect(order.count == 4)
        #expect(order.first == "Lunch@a")
        #expect(order.last == "Dinner@t")
        #expect(try await laptop.itinerary(trip) == order)
    }

    @Test func notesEditedOnBothDevicesMergeWithoutAsking() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, _, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.notes: "book ahead\ncash only\n"])
        await phone.sync()
        await laptop.sync()

        try await phone.database.editItem(lunch, [.notes: "book ahead for four\ncash only\n"])
        try await laptop.database.editItem(lunch, [.notes: "book ahead\ncash only, no cards\n"])
        await phone.sync()
        let report = await laptop.sync()
        #expect(report.merged == 1)
        #expect(report.fieldConflicts == 0)
        await phone.sync()

        for device in [phone, laptop] {
            #expect(try await device.item(lunch)?.notes == "book ahead for four\ncash only, no cards\n")
            #expect(try await device.database.conflicts().isEmpty)
        }
    }

    @Test func notesChangedTheSameWayDifferentlyAskInsteadOfJoiningThem() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, _, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.notes: "table for 4"])
        try await laptop.database.editItem(lunch, [.notes: "table for 6"])
        await phone.sync()
        let report = await laptop.sync()

        #expect(report.fieldConflicts == 1)
        let item = try #require(try await laptop.item(lunch))
        #expect(item.notes == "table for 4")
        #expect(item.fields[.notes]?.conflict?.mine == "table for 6")
    }

    @Test func anExpiredCursorResyncsFromTheSnapshotAndKeepsTheWaitingEdits() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.title: "Lunch at Time Out Market"])
        try await phone.database.addItem(to: trip, [.title: "Museum", .order: "m"])
        await phone.sync()
        await cluster.server.expireCursors(of: trip)
        // The laptop's edit cannot be sent during this run.
        try await laptop.database.editItem(lunch, [.notes: "book ahead"])
        laptop.transport.always(.status(503)) { $0.path.contains("/ops") }

        let report = await laptop.sync()
        #expect(report.fullResync)
        #expect(!report.succeeded)
        let item = try #require(try await laptop.item(lunch))
        #expect(item.title == "Lunch at Time Out Market")
        #expect(item.notes == "book ahead")
        #expect(item.fields[.notes]?.isPending == true)
        #expect(try await laptop.itinerary(trip) == ["Lunch at Time Out Market@a", "Museum@m"])

        laptop.transport.clearRules()
        #expect(await laptop.sync().succeeded)
        await phone.sync()
        #expect(try await phone.item(lunch)?.notes == "book ahead")
    }

    @Test func aLostReplyIsResentWithTheSameOpIDAndNoOpAppliesTwice() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, _, trip, lunch) = try await Self.lisbonOnBoth(cluster)
        let sent = OpIDLog()
        await cluster.server.onOps { _, request in sent.append(request.opId) }
        try await phone.database.editItem(lunch, [.title: "Lunch at Time Out Market", .start: Lisbon.noon])
        phone.transport.enqueue(.dropReply)

        let lost = await phone.sync()
        #expect(!lost.succeeded)
        #expect(try await phone.item(lunch)?.hasPendingChanges == true)
        #expect(await phone.sync().succeeded)

        #expect(sent.all.count == 2)
        #expect(Set(sent.all).count == 1)
        let applied = await cluster.server.applied.filter { $0.trip == trip.description }
        #expect(Set(applied.map { "\($0.opID)#\($0.index)" }).count == applied.count)
        #expect(applied.filter { $0.opID == sent.all.first }.count == 2)
        let item = try #require(try await phone.item(lunch))
        #expect(!item.hasPendingChanges)
        #expect(item.title == "Lunch at Time Out Market")
    }

    @Test func aRequestTheServerRefusesKeepsItsValuesWithTheReason() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, _, _, lunch) = try await Self.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.title: "Lunch at Time Out Market"])
        phone.transport.always(.status(403)) { $0.path.contains("/ops") }

        let report = await phone.sync()
        #expect(report.refused == 1)
        let item = try #require(try await phone.item(lunch))
        #expect(item.title == "Lunch at Time Out Market")
        #expect(item.fields[.title]?.rejectedReason != nil)
        #expect(!item.hasPendingChanges)
        #expect(try await phone.database.statusRowNow().rejectedCount == 1)

        // The next edit of the field replaces the refused change and is sent.
        phone.transport.clearRules()
        try await phone.database.editItem(lunch, [.title: "Lunch at the market"])
        #expect(await phone.sync().succeeded)
        #expect(try await phone.item(lunch)?.fields[.title]?.rejectedReason == nil)
        #expect(try await phone.database.statusRowNow().rejectedCount == 0)
    }

    @Test func aDeletedTripLeavesTheOtherDevicesList() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, _) = try await Self.lisbonOnBoth(cluster)
        #expect(try await laptop.database.trips().map(\.title) == ["Lisbon"])
        try await phone.database.deleteTrip(trip)
        #expect(try await phone.database.trips().isEmpty)
        await phone.sync()
        await laptop.sync()
        #expect(try await laptop.database.trips().isEmpty)
        #expect(try await laptop.trip(trip) == nil)
    }
}

/// The opIds a server was sent, in order.
///
/// `@unchecked Sendable`: its one field is only touched under `lock`.
final class OpIDLog: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []

    func append(_ id: String) { lock.withLock { ids.append(id) } }
    var all: [String] { lock.withLock { ids } }
}
