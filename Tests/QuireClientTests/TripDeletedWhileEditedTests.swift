import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// A trip deleted on one device while another changed it offline (seed 002 §5: "Deleting
/// someone's work silently is the worse failure"). The server refuses the changes (an op on an
/// item of a deleted trip); the device used to hide the trip, keep the refused changes where no
/// screen showed them, and fail every later sync with "N trip change(s) were refused". Now the
/// trip comes back as one offer, "This trip was deleted. Restore it?", which an owner answers.
@Suite struct TripDeletedWhileEditedTests {
    /// Lisbon with Lunch on both devices; the laptop then adds Dinner and a note on Lunch offline
    /// while the phone deletes the trip and syncs; then the laptop syncs.
    static func deletedWhileTheLaptopEdited(_ cluster: TripsCluster) async throws
        -> (phone: TripsDevice, laptop: TripsDevice, trip: TripID, lunch: ItemID, dinner: ItemID, report: SyncReport)
    {
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        let dinner = try await laptop.database.addItem(to: trip, [.title: "Dinner", .kind: "meal", .order: "b"])
        try await laptop.database.editItem(lunch, [.notes: "book ahead"])
        try await phone.database.deleteTrip(trip)
        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        return (phone, laptop, trip, lunch, dinner, report)
    }

    @Test func changesToATripDeletedElsewhereAreOfferedBackNotRefused() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (_, laptop, trip, _, _, report) = try await Self.deletedWhileTheLaptopEdited(cluster)

        #expect(report.succeeded)
        #expect(report.refused == 0, "the delete won; nothing was refused for being wrong")
        #expect(report.fieldConflicts == 1, "one offer for the trip")
        let status = try await laptop.database.statusRowNow()
        #expect(status.rejectedCount == 0)
        #expect(status.conflictCount == 1)
        let offers = try await laptop.database.conflicts().filter { $0.item == nil && $0.field == .deleted }
        #expect(offers.count == 1)
        #expect(offers.first?.trip == trip)
        #expect(offers.first?.changesOfDeletedTrip == 4, "Dinner's three fields and Lunch's note")
        #expect(try await laptop.database.deletedTripTitle(trip) == "Lisbon")
        // The trip is not listed as live, and the next sync is clean.
        #expect(try await laptop.database.trips().isEmpty)
        let again = await laptop.sync()
        #expect(again.succeeded)
        #expect(again.refused == 0)
    }

    @Test func anOwnerRestoringTheTripSendsTheChangesAndEveryDeviceHasThem() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch, dinner, _) = try await Self.deletedWhileTheLaptopEdited(cluster)

        try await laptop.database.resolveConflict(trip: trip, item: nil, field: .deleted, keep: .mine)
        #expect(try await laptop.database.trips().map(\.title) == ["Lisbon"], "restored at once, offline")
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)

        for device in [phone, laptop] {
            #expect(try await device.itinerary(trip) == ["Lunch@a", "Dinner@b"], "\(device.name)")
            #expect(try await device.item(lunch)?.notes == "book ahead")
            #expect(try await device.item(dinner)?.title == "Dinner")
            #expect(try await device.database.conflicts().isEmpty)
            #expect(try await device.database.statusRowNow().rejectedCount == 0)
            #expect(try await device.database.statusRowNow().pendingCount == 0)
        }
    }

    @Test func lettingTheTripGoDropsTheChangesAndLeavesNothingWaiting() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (_, laptop, trip, _, _, _) = try await Self.deletedWhileTheLaptopEdited(cluster)

        try await laptop.database.resolveConflict(trip: trip, item: nil, field: .deleted, keep: .theirs)

        #expect(try await laptop.database.conflicts().isEmpty)
        let status = try await laptop.database.statusRowNow()
        #expect(status.rejectedCount == 0 && status.pendingCount == 0 && status.conflictCount == 0)
        #expect(try await laptop.database.trips().isEmpty)
        let report = await laptop.sync()
        #expect(report.succeeded && report.refused == 0 && report.fieldConflicts == 0)
    }

    @Test func changesRefusedForADeletedTripAreSentWhenAnotherDeviceRestoresIt() async throws {
        // The editor's way back (an editor may not restore a trip): an owner restores it, and the
        // changes the delete had refused go out on this device's next sync.
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch, _, _) = try await Self.deletedWhileTheLaptopEdited(cluster)

        try await phone.database.restoreTrip(trip)
        #expect(await phone.sync().succeeded)
        let report = await laptop.sync()
        #expect(report.succeeded)
        #expect(await phone.sync().succeeded)

        for device in [phone, laptop] {
            #expect(try await device.itinerary(trip) == ["Lunch@a", "Dinner@b"], "\(device.name)")
            #expect(try await device.item(lunch)?.notes == "book ahead")
            #expect(try await device.database.conflicts().isEmpty)
            #expect(try await device.database.statusRowNow().rejectedCount == 0)
        }
    }

    @Test func aTripThisDeviceDeletedItselfOffersNothing() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, _, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await phone.database.editItem(lunch, [.notes: "typed, then the trip deleted"])
        try await phone.database.deleteTrip(trip)
        #expect(await phone.sync().succeeded)
        #expect(await phone.sync().succeeded)
        #expect(try await phone.database.conflicts().isEmpty)
        #expect(try await phone.database.statusRowNow().rejectedCount == 0)
    }
}
