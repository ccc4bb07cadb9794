import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import QuireTrips
import Testing

/// Notes and trips on one sync core: one controller, one device run, one status.
@Suite struct TripSyncCoreTests {
    /// Runs the controller reported, in order.
    final class Runs: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var reports: [(SyncTrigger, SyncReport)] = []
        func append(_ trigger: SyncTrigger, _ report: SyncReport) {
            lock.withLock { reports.append((trigger, report)) }
        }
        var count: Int { lock.withLock { reports.count } }
        var last: (SyncTrigger, SyncReport)? { lock.withLock { reports.last } }
    }

    /// A phone's notes (on a real server in process) and trips (on the in-memory trips server).
    struct Phone {
        let notes: SyncCluster
        let trips: TripsCluster
        let notesDevice: ClusterDevice
        let tripsDevice: TripsDevice

        init() async throws {
            notes = try await SyncCluster()
            trips = try TripsCluster()
            notesDevice = try await notes.addDevice("phone")
            tripsDevice = try trips.addDevice("phone")
        }

        var parts: [any SyncPart] {
            [
                NotesSyncPart(engine: notesDevice.engine, records: notesDevice.database, api: notesDevice.api),
                TripsSyncPart(engine: tripsDevice.engine, database: tripsDevice.database),
            ]
        }

        func remove() {
            notes.remove()
            trips.remove()
        }
    }

    @Test func theControllerPushesATripEditAfterTheDebounceBesideTheNotes() async throws {
        let phone = try await Phone()
        defer { phone.remove() }
        let tripsPhone = phone.tripsDevice
        let trips = phone.trips
        let clock = ManualClock()
        let controller = SyncController(parts: phone.parts, clock: clock, longPollWait: 0, random: { 0.5 })
        let runs = Runs()
        await controller.onRun { runs.append($0, $1) }
        await controller.start()
        #expect(await eventually { runs.count == 1 })

        let trip = try await tripsPhone.database.createTrip(title: "Lisbon")
        #expect(await eventually { clock.sleeperCount >= 2 })
        #expect(runs.count == 1)
        clock.advance(by: .milliseconds(300))
        #expect(await eventually { runs.count == 2 })
        #expect(runs.last?.0 == .localChange)
        #expect(runs.last?.1.pushed == 1)
        #expect(await trips.server.revision(of: trip) == 1)
        await controller.stop()
    }

    @Test func anotherDevicesTripEditArrivesThroughTheTripsLongPoll() async throws {
        let trips = try TripsCluster()
        defer { trips.remove() }
        let phone = try trips.addDevice("phone")
        let laptop = try trips.addDevice("laptop")
        let trip = try await phone.database.createTrip(title: "Lisbon")
        await phone.sync()
        await laptop.sync()
        let controller = SyncController(
            parts: [TripsSyncPart(engine: laptop.engine, database: laptop.database)], clock: ManualClock(),
            longPollWait: 20, random: { 0.5 })
        let runs = Runs()
        await controller.onRun { runs.append($0, $1) }
        await controller.start()
        #expect(await eventually { runs.count == 1 })

        try await phone.database.editTrip(trip, [.title: "Lisbon 2027"])
        await phone.sync()

        #expect(await eventually { runs.count == 2 })
        #expect(runs.last?.0 == .liveUpdate)
        #expect(try await laptop.trip(trip)?.title == "Lisbon 2027")
        await controller.stop()
    }

    @Test func oneDeviceRunSyncsTheNotesThenTheTripsAndAddsUpWhatTheyDid() async throws {
        let phone = try await Phone()
        defer { phone.remove() }
        let tripsPhone = phone.tripsDevice
        try await phone.notesDevice.create(title: "Packing", body: "hat")
        let trip = try await tripsPhone.database.createTrip(title: "Lisbon")
        try await tripsPhone.database.addItem(to: trip, [.title: "Lunch", .order: "a"])

        let report = await DeviceSync(parts: phone.parts).syncOnce()

        #expect(report.succeeded)
        #expect(report.pushed == 1 + 3)
        #expect(try await tripsPhone.database.statusRowNow().pendingCount == 0)
    }

    @Test func theStatusCountsWaitingTripChangesBesideUnsyncedNotes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notes = try NotesDatabase(fileURL: directory.path("notes.sqlite"))
        let trips = try TripsDatabase(fileURL: directory.path("trips.sqlite"))
        try await notes.saveNote(id: NoteID(), title: "Packing", body: "hat")
        let trip = try await trips.createTrip(title: "Lisbon")
        try await trips.addItem(to: trip, [.title: "Lunch", .notes: "book ahead"])

        let repository = LocalSyncStatusRepository(records: notes, trips: trips)
        var seen: SyncStatus?
        for await status in repository.status() {
            seen = status
            break
        }
        let status = try #require(seen)
        #expect(status.pendingCount == 1 + 3)
        #expect(status.tripPendingCount == 3)
        #expect(status.tripConflictCount == 0)
        #expect(status.conflictCount == 0)
    }

    @Test func aServerWithoutTripsIsNoFailureUntilATripWaitsToBeSent() async throws {
        let notes = try await SyncCluster()
        defer { notes.remove() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try TripsDatabase(fileURL: directory.path("trips.sqlite"))
        let engine = TripsSyncEngine(
            database: database,
            api: TripsAPIClient(
                transport: ServerBeforeTrips(inner: InProcessTransport(server: notes.server)),
                tokens: StaticTokenProvider(token: notes.token)),
            keys: TripKeyWrapping(notesKey: notes.notesKey, account: AccountID("cluster")),
            account: AccountID("cluster"))

        #expect(await engine.syncOnce().succeeded)

        try await database.createTrip(title: "Lisbon")
        let report = await engine.syncOnce()
        #expect(report.failure?.kind == .transient)
        let status = try await database.statusRowNow()
        #expect(status.pendingCount == 1)
        #expect(status.rejectedCount == 0)
        let part = TripsSyncPart(engine: engine, database: database)
        await #expect(throws: SyncPartUnavailable.self) { _ = try await part.remoteChangeArrived(wait: 0) }
    }
}

/// A server from before trips: every trips route is an unknown path, answered as such servers did.
private struct ServerBeforeTrips: HTTPTransport {
    let inner: InProcessTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.path.hasPrefix("/v1/trips") else { return try await inner.send(request) }
        let body =
            #"{"error":{"code":"not_found","message":"There is no such path; see /v1/openapi.json for the API."}}"#
        return TransportResponse(
            status: 404, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}
