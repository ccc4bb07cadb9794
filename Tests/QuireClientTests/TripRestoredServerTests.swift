import Foundation
import QuireClient
import QuireCrypto
import QuireServer
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// Trips on a server restored from an older backup (issue 14, the trips' form of issue 9's
/// defect 8): the server forgets writes it acknowledged. A device whose trip cursor is from after
/// the backup gets `invalid_cursor`; one whose cursor is from before it learns from the position
/// of its newest acknowledged write (`known=`). Either way it takes the snapshot and sends its
/// forgotten writes again, and nothing it typed is lost. Found by the simulation (seed 22: a trip
/// cursor from the forgotten history stopped every later pull).
@Suite struct TripRestoredServerTests {
    /// A real server core on SQLite and trips devices of one account through it.
    final class Setup: @unchecked Sendable {
        let cluster: SyncCluster

        init() async throws {
            cluster = try await SyncCluster()
        }

        func device(_ name: String) async throws -> TripsDevice {
            let token = try await cluster.server.openSession(username: cluster.username, deviceName: name)
            let database = try TripsDatabase(
                fileURL: cluster.directory.path(name).appendingPathComponent("trips.sqlite"))
            let transport = FaultyTransport(wrapping: InProcessTransport(server: cluster.server))
            let account = AccountID("alice")
            let engine = TripsSyncEngine(
                database: database,
                api: TripsAPIClient(transport: transport, tokens: StaticTokenProvider(token: token)),
                keys: TripKeyWrapping(notesKey: cluster.notesKey, account: account), account: account)
            return TripsDevice(name: name, database: database, transport: transport, engine: engine)
        }

        func backUp() async throws -> String {
            let path = cluster.directory.path("backup-\(UUID().uuidString).sqlite").path
            try await cluster.storage.backUp(to: path)
            return path
        }

        func restore(_ path: String) async throws {
            try await cluster.storage.restore(fromBackupAt: path)
        }

        /// A phone and a laptop that both hold the trip "Lisbon" with its "Lunch" (order "a").
        func lisbonOnBoth() async throws -> (TripsDevice, TripsDevice, TripID, ItemID) {
            let phone = try await device("phone")
            let laptop = try await device("laptop")
            let trip = try await phone.database.createTrip(title: "Lisbon")
            let lunch = try await phone.database.addItem(to: trip, [.title: "Lunch", .order: "a"])
            #expect(await phone.sync().succeeded)
            #expect(await laptop.sync().succeeded)
            return (phone, laptop, trip, lunch)
        }
    }

    @Test func editsAcknowledgedAfterTheBackupAreSentAgainWhenTheCursorIsFromBeforeIt() async throws {
        let setup = try await Setup()
        defer { setup.cluster.remove() }
        let (phone, laptop, _, lunch) = try await setup.lisbonOnBoth()
        let backup = try await setup.backUp()

        // The phone's edits are acknowledged after the backup; its cursor stays from before it
        // (its push alone does not move the cursor).
        try await phone.database.editItem(lunch, [.title: "Lunch at Time Out Market", .notes: "book ahead"])
        let pushed = await phone.engine.syncOnce()
        #expect(pushed.succeeded)
        try await setup.restore(backup)
        // The laptop writes in the restored history, taking the revisions the phone's edits had.
        try await laptop.database.editItem(lunch, [.location: "Cais do Sodré"])
        #expect(await laptop.sync().succeeded)

        let report = await phone.sync()
        #expect(report.succeeded, "\(String(describing: report.failure))")
        #expect(report.fullResync)
        #expect(await laptop.sync().succeeded)
        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(item.title == "Lunch at Time Out Market", "\(device.name)")
            #expect(item.notes == "book ahead", "\(device.name)")
            #expect(item.location == "Cais do Sodré", "\(device.name)")
            #expect(!item.hasPendingChanges)
        }
    }

    @Test func aTripCursorFromTheForgottenHistoryResyncsAndKeepsTheDelete() async throws {
        let setup = try await Setup()
        defer { setup.cluster.remove() }
        let phone = try await setup.device("phone")
        let laptop = try await setup.device("laptop")
        let trip = try await phone.database.createTrip(title: "Lisbon")
        let lunch = try await phone.database.addItem(to: trip, [.title: "Lunch", .order: "a"])
        let dinner = try await phone.database.addItem(to: trip, [.title: "Dinner", .order: "b"])
        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        let backup = try await setup.backUp()
        try await laptop.database.deleteItem(dinner)
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        try await setup.restore(backup)
        try await phone.database.editItem(lunch, [.notes: "after the restore"])
        #expect(await phone.sync().succeeded)

        // The laptop's trip cursor is from the history the restore forgot.
        let report = await laptop.sync()
        #expect(report.succeeded, "\(String(describing: report.failure))")
        #expect(report.fullResync)
        #expect(await phone.sync().succeeded)
        for device in [phone, laptop] {
            #expect(try await device.itinerary(trip) == ["Lunch@a"], "\(device.name)")
            #expect(try await device.item(lunch)?.notes == "after the restore")
        }
    }

    @Test func aTripMadeAfterTheBackupIsMadeAgainWithEverythingItHeld() async throws {
        let setup = try await Setup()
        defer { setup.cluster.remove() }
        let phone = try await setup.device("phone")
        let laptop = try await setup.device("laptop")
        let backup = try await setup.backUp()
        let trip = try await phone.database.createTrip(title: "Porto")
        let dinner = try await phone.database.addItem(to: trip, [.title: "Dinner", .order: "a"])
        #expect(await phone.sync().succeeded)
        try await phone.database.editItem(dinner, [.location: "Ribeira"])
        try await setup.restore(backup)

        // The server has no such trip now: the phone, its owner, makes it again and resends.
        let report = await phone.sync()
        #expect(report.succeeded, "\(String(describing: report.failure))")
        #expect(report.reuploaded > 0)
        #expect(await laptop.sync().succeeded)
        for device in [phone, laptop] {
            #expect(try await device.trip(trip)?.title == "Porto", "\(device.name)")
            let item = try #require(try await device.item(dinner))
            #expect(item.title == "Dinner")
            #expect(item.location == "Ribeira")
            #expect(!item.hasPendingChanges && !item.hasRejectedChange)
        }
    }

    @Test func aForgottenWriteThatAnotherDeviceOverwroteSinceIsAConflictNotALoss() async throws {
        let setup = try await Setup()
        defer { setup.cluster.remove() }
        let (phone, laptop, _, lunch) = try await setup.lisbonOnBoth()
        let backup = try await setup.backUp()
        try await phone.database.editItem(lunch, [.start: Lisbon.halfPastTwelve])
        #expect(await phone.sync().succeeded)
        try await setup.restore(backup)
        // After the restore the laptop, which never saw the phone's time, sets another.
        try await laptop.database.editItem(lunch, [.start: Lisbon.one])
        #expect(await laptop.sync().succeeded)

        #expect(await phone.sync().succeeded)
        let conflict = try #require(try await phone.database.conflicts().first)
        #expect(conflict.mine == Lisbon.halfPastTwelve)
        #expect(conflict.theirs == Lisbon.one)
        #expect(try await phone.item(lunch)?.start?.fieldValue == Lisbon.one)
    }

    /// The trips' form of seed 5293: a write the restored server acknowledges before any pull
    /// must not hide the one it forgot, so every position not yet checked goes with the pull.
    @Test func aWriteTheRestoredServerTakesFirstDoesNotHideTheOneItForgot() async throws {
        let setup = try await Setup()
        defer { setup.cluster.remove() }
        let (phone, laptop, _, lunch) = try await setup.lisbonOnBoth()
        let backup = try await setup.backUp()
        // The notes are acknowledged after the backup, and no pull of the phone checks them.
        phone.transport.always(.unreachable) { $0.method == "GET" }
        try await phone.database.editItem(lunch, [.notes: "book ahead"])
        _ = await phone.sync()
        try await setup.restore(backup)
        // The restored server takes the phone's next write at the same revision.
        try await phone.database.editItem(lunch, [.location: "Time Out Market"])
        _ = await phone.sync()
        phone.transport.clearRules()

        #expect(await phone.sync().succeeded)
        #expect(await laptop.sync().succeeded)
        for device in [phone, laptop] {
            let item = try #require(try await device.item(lunch))
            #expect(item.notes == "book ahead", "\(device.name)")
            #expect(item.location == "Time Out Market", "\(device.name)")
        }
    }
}

/// A server restored from a backup taken before a key rotation (issue 15): the device holds a
/// newer key than the server knows, its ops are refused with `trip_key_rotated`, and it must go
/// back to the server's epoch instead of waiting forever.
@Suite struct TripRestoredKeyRotationTests {
    @Test func aDeviceAKeyAheadOfARestoredServerGoesBackToItsEpochAndSends() async throws {
        let cluster = try await SyncCluster()
        let token = try await cluster.server.openSession(username: cluster.username, deviceName: "phone")
        let database = try TripsDatabase(
            fileURL: cluster.directory.path("phone").appendingPathComponent("trips.sqlite"))
        let transport = InProcessTransport(server: cluster.server)
        let tokens = StaticTokenProvider(token: token)
        let account = AccountID("alice")
        let sharing = TripSharing(
            api: TripSharingAPIClient(transport: transport, tokens: tokens), database: database,
            notesKey: cluster.notesKey, account: account, username: cluster.username,
            server: URL(string: "http://127.0.0.1")!)
        let engine = TripsSyncEngine(
            database: database, api: TripsAPIClient(transport: transport, tokens: tokens),
            keys: TripKeyWrapping(notesKey: cluster.notesKey, account: account), keySource: sharing, account: account)
        let trip = try await database.createTrip(title: "Lisbon")
        #expect(await engine.syncOnce().succeeded)
        try await sharing.keyPair()
        let backup = cluster.directory.path("backup.sqlite").path
        try await cluster.storage.backUp(to: backup)
        #expect(try await sharing.rotateKey(of: trip) == 2)
        try await cluster.storage.restore(fromBackupAt: backup)

        try await database.editTrip(trip, [.notes: "typed after the restore"])
        let report = await engine.syncOnce()

        #expect(report.succeeded, "\(report)")
        #expect(try await database.readStatus().pendingCount == 0)
        #expect(try await database.keyring(trip)?.epoch == 1)
        let alice = try #require(try await cluster.storage.account(username: cluster.username)?.id)
        let snapshot = try #require(try await cluster.storage.tripSnapshot(trip.description, account: alice))
        let notes = try #require(snapshot.fields.first { $0.field == "notes" }?.value)
        #expect(TripKeyEpoch.of(notes) == 1)
    }
}
