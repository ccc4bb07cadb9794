import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// Seed 002 §5 in the order the seed does not spell out: the editor's sync lands before the
/// delete. The delete still wins, and an edit its device had not seen comes back to its editor to
/// restore; an edit the deleter had seen does not. Found by the simulation (seed 4: an acknowledged
/// start time vanished under a delete from a device that never saw it).
@Suite struct TripUnseenEditTests {
    @Test func anEditSyncedBeforeAnotherDevicesDeleteComesBackToRestore() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await laptop.database.editItem(lunch, [.notes: "book ahead", .start: Lisbon.halfPastTwelve])
        try await phone.database.deleteItem(lunch)

        // The edit reaches the server first; the phone, which never saw it, deletes the item.
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        #expect(try await phone.itinerary(trip) == [])

        let report = await laptop.sync()
        #expect(report.succeeded)
        let record = try #require(try await laptop.trip(trip))
        #expect(record.items.isEmpty)
        #expect(record.deletedItemsWithConflicts.map(\.id) == [lunch])
        let conflict = try #require(try await laptop.database.conflicts().first)
        #expect(conflict.isDeletedWhileEdited)
        #expect(conflict.editedValues == [.notes: "book ahead", .start: Lisbon.halfPastTwelve])

        try await laptop.database.restoreItem(lunch)
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(!item.isDeleted)
            #expect(item.notes == "book ahead")
            #expect(item.start?.fieldValue == Lisbon.halfPastTwelve)
            #expect(try await device.database.conflicts().isEmpty)
        }
    }

    @Test func anUnseenEditIsOfferedOnEveryDeviceThatPulledItSoItOutlivesItsAuthorsDevice() async throws {
        // Issue 15: the laptop's edit reaches the server, the tablet pulls it, then the phone,
        // which never saw it, deletes the item. Before, only the laptop offered the edit back: had
        // the laptop been lost (or its member left), the edit was gone. The tablet offers it too.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        let tablet = try cluster.addDevice("tablet")
        #expect(await tablet.sync().succeeded)
        try await laptop.database.editItem(lunch, [.notes: "book ahead"])
        try await phone.database.deleteItem(lunch)
        #expect(await laptop.sync().succeeded)
        #expect(await tablet.sync().succeeded)
        #expect(try await tablet.item(lunch)?.notes == "book ahead")
        #expect(await phone.sync().succeeded)

        #expect(await tablet.sync().succeeded)
        let record = try #require(try await tablet.trip(trip))
        #expect(record.deletedItemsWithConflicts.map(\.id) == [lunch])
        let conflict = try #require(try await tablet.database.conflicts().first)
        #expect(conflict.isDeletedWhileEdited)
        #expect(conflict.editedValues == [.notes: "book ahead"])
        // The phone deleted the item without having seen the note: it is offered there too.
        #expect(try await phone.database.conflicts().first?.editedValues == [.notes: "book ahead"])

        // The laptop is never heard from again; the tablet restores the edit for everyone.
        try await tablet.database.restoreItem(lunch)
        #expect(await tablet.sync().succeeded)
        #expect(await phone.sync().succeeded)
        for device in [phone, tablet] {
            let item = try #require(try await device.item(lunch))
            #expect(!item.isDeleted)
            #expect(item.notes == "book ahead")
        }
    }

    @Test func anItemEditedThenDeletedInOneRequestIsOfferedBackNowhere() async throws {
        // The phone typed a note into the item and deleted it, offline: one request. The delete
        // had seen its own note, so no device offers the note back.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.notes: "maybe not"])
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.database.conflicts().isEmpty)
        #expect(try await laptop.trip(trip)?.deletedItemsWithConflicts.isEmpty == true)
        #expect(try await laptop.item(lunch)?.isDeleted == true)
    }

    @Test func aDeleteThatSawTheEditOffersNothingBack() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await laptop.database.editItem(lunch, [.notes: "book ahead"])
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        #expect(try await phone.item(lunch)?.notes == "book ahead")

        // The phone saw the note, then deleted the item: the person chose to let it go.
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        #expect(try await laptop.database.conflicts().isEmpty)
        #expect(try await laptop.trip(trip)?.deletedItemsWithConflicts.isEmpty == true)
        #expect(try await laptop.item(lunch)?.isDeleted == true)
    }

    @Test func aSnapshotBringingTheDeleteOffersTheUnseenEditToo() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await laptop.database.editItem(lunch, [.location: "Time Out Market"])
        #expect(await laptop.sync().succeeded)
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)

        // The laptop's cursor expired: the delete arrives in the snapshot.
        await cluster.server.expireCursors(of: trip)
        let report = await laptop.sync()
        #expect(report.fullResync)
        let conflict = try #require(try await laptop.database.conflicts().first)
        #expect(conflict.editedValues == [.location: "Time Out Market"])
    }

    @Test func restoringAnEditWhoseFieldChangedUnseenAsksInsteadOfReplacing() async throws {
        // 10-device seed 29: the laptop's start time met the phone's delete, and the pull brought
        // the tablet's start time, applied before the delete and never shown on the laptop.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, _, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        let tablet = try cluster.addDevice("tablet")
        #expect(await tablet.sync().succeeded)
        try await tablet.database.editItem(lunch, [.start: Lisbon.noon])
        #expect(await tablet.sync().succeeded)
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)
        try await laptop.database.editItem(lunch, [.start: Lisbon.one])
        #expect(await laptop.sync().succeeded)
        let offer = try #require(try await laptop.database.conflicts().first)
        #expect(offer.edits?[.start] == TripEditedValue(Lisbon.one, startedFrom: .init(nil)))

        // Restoring brings the item back and asks about the start time, with both values.
        try await laptop.database.restoreItem(lunch)
        #expect(await laptop.sync().succeeded)
        let asked = try #require(try await laptop.database.conflicts().first)
        #expect(asked.field == .start && !asked.isDeletedWhileEdited)
        #expect(asked.mine == Lisbon.one && asked.theirs == Lisbon.noon)
        #expect(await tablet.sync().succeeded)
        #expect(try await tablet.item(lunch)?.isDeleted == false)
        #expect(try await tablet.item(lunch)?.start?.fieldValue == Lisbon.noon)
    }

    @Test func anEditWhoseReplyWasLostIsOfferedBackWhenItsAnswerComesAfterItsPull() async throws {
        // Seed 3550: the laptop's reply was lost and its pull brought its own value as another
        // device's; the resend's answer then found the value held and did not mark it as the
        // laptop's own, so the phone's unseeing delete offered nothing back.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, _, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await laptop.database.editItem(lunch, [.location: "Time Out Market"])
        laptop.transport.enqueue(.dropReply)
        #expect(await !laptop.sync().succeeded)
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)

        #expect(await laptop.sync().succeeded)
        let offer = try #require(try await laptop.database.conflicts().first)
        #expect(offer.isDeletedWhileEdited)
        #expect(offer.editedValues == [.location: "Time Out Market"])
    }

    @Test func anEditWhoseAnswerComesAfterTheDeleteArrivedIsOfferedBack() async throws {
        // The other order: the resend is lost too, the pull brings the phone's delete while the
        // edit waits for its answer, and the answer says the server applied it before the delete.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let clock = ManualClock()
        let start = Date()
        let phone = try cluster.addDevice("phone")
        let laptop = try cluster.addDevice("laptop") {
            start.addingTimeInterval(Double(clock.now.offset.components.seconds))
        }
        let trip = try await phone.database.createTrip(title: "Lisbon", startDate: LocalDate("2027-06-09"))
        let lunch = try await phone.database.addItem(to: trip, [.title: "Lunch", .kind: "meal", .order: "a"])
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        try await laptop.database.editItem(lunch, [.location: "Time Out Market"])
        laptop.transport.enqueue(.dropReply)
        #expect(await !laptop.sync().succeeded)
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)
        laptop.transport.enqueue(.dropRequest)
        #expect(await !laptop.sync().succeeded)
        #expect(try await laptop.item(lunch)?.isDeleted == true)

        // The second failure holds the request back for its retry delay (2 s).
        clock.advance(by: .seconds(Int(ChangeRetry.delay(afterAttempts: 2)) + 1))
        #expect(await laptop.sync().succeeded)
        let offer = try #require(try await laptop.database.conflicts().first)
        #expect(offer.isDeletedWhileEdited)
        #expect(offer.editedValues == [.location: "Time Out Market"])
    }
}
