import Foundation
import QuirePostgres
import QuireWire
import Testing

@testable import QuireServer

/// Issue 13 part 4: a long-poll held by one instance wakes when another instance on the same
/// PostgreSQL database commits a change for its account, through `LISTEN`/`NOTIFY`, and the
/// periodic re-check delivers when no notification comes.
///
/// The re-check period is a minute unless a test is about it, and polls wait 30 s, so a poll
/// answered within the bound was woken by a notification. The bound is 10 s where the design
/// aims at 100 ms: room for a loaded machine (two cores at a load of 17 put a few wakes in a
/// thousand past one second, and wakes took 4.7 s beside two simulation runs and two builds);
/// these suites run in test.sh's serial pass, and docs/scaling.md reports the measured figures.
struct LiveUpdatesAcrossInstancesTests {
    static let bound: Duration = .seconds(10)

    static func configuration(recheck: Duration = .seconds(60)) -> NotesServerConfiguration {
        var configuration = ServerHarness.configuration
        configuration.liveUpdateRecheck = recheck
        return configuration
    }

    @Test func aNotesPollOnOneInstanceWakesWhenAnotherCommits() async throws {
        // Given two instances on one database, and a long-poll held by the first.
        let harness = try await ServerHarness(store: .postgres, configuration: Self.configuration())
        let second = try await harness.secondInstance(configuration: Self.configuration())
        let token = try await harness.token("ann")
        let poll = try await Self.startNotesPoll(harness, token: token)

        // When the second instance saves a note for that account.
        let id = ServerHarness.uuid()
        let (page, elapsed) = try await Self.timed(poll) { await Self.put(second, id, token: token) }

        // Then the first instance's poll answers with it within the bound.
        #expect(page.changes.map(\.id) == [id])
        #expect(elapsed < Self.bound, "woke after \(elapsed)")
    }

    @Test func aTripsPollOnOneInstanceWakesWhenAnotherCommits() async throws {
        let harness = try await ServerHarness(store: .postgres, configuration: Self.configuration())
        let second = try await harness.secondInstance(configuration: Self.configuration())
        let token = try await harness.token("ann")
        let cursor = try await harness.tripsFeed(token: token).nextCursor
        let poll = Task { try await harness.tripsFeed(token: token, since: cursor, wait: 30) }
        try #require(await eventually { await harness.server.tripNotifier.waiterCount == 1 })

        let trip = ServerHarness.uuid()
        let started = ContinuousClock.now
        let created = await second.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.trip(trip), headers: ["Authorization": "Bearer \(token)"],
                body: WireJSON.encode(CreateTripRequestDTO(wrappedKey: TripValue.wrappedKey))))
        try #require(created.status == 201)
        let page = try await poll.value
        let elapsed = ContinuousClock.now - started

        #expect(page.trips.map(\.id) == [trip])
        #expect(elapsed < Self.bound, "woke after \(elapsed)")
    }

    @Test func aCutListenerConnectionReconnectsAndALaterWriteStillWakes() async throws {
        // Given two instances, and the first one's listening connection cut by the server.
        let harness = try await ServerHarness(store: .postgres, configuration: Self.configuration())
        let second = try await harness.secondInstance(configuration: Self.configuration())
        let token = try await harness.token("ann")
        let storage = try #require(harness.server.storage as? PostgresServerStorage)
        try #require(await eventually { storage.listenerBackendProcessID != nil })
        let cut = try #require(storage.listenerBackendProcessID)
        let connection = try #require(harness.postgresConnectionString)
        let terminated = try await onOwnThread {
            try PostgresConnection(connection).queryFirst("SELECT pg_terminate_backend($1)", cut) {
                try $0.bool(0)
            }
        }
        try #require(terminated == true)

        // When it has listened again and the second instance then saves a note.
        try #require(await eventually { storage.listenerConnections >= 2 })
        #expect(storage.listenerBackendProcessID != cut)
        let poll = try await Self.startNotesPoll(harness, token: token)
        let id = ServerHarness.uuid()
        let (page, elapsed) = try await Self.timed(poll) { await Self.put(second, id, token: token) }

        // Then the poll still wakes within the bound.
        #expect(page.changes.map(\.id) == [id])
        #expect(elapsed < Self.bound, "woke after \(elapsed)")
    }

    @Test func withNotificationsOffThePeriodicRecheckStillDelivers() async throws {
        // Given a first instance that neither listens nor notifies, re-checking every 300 ms.
        let writer = try await ServerHarness(store: .postgres, configuration: Self.configuration())
        let connection = try #require(writer.postgresConnectionString)
        let quiet = NotesServer(
            storage: try await PostgresServerStorage.connect(connection, changeNotifications: false),
            configuration: Self.configuration(recheck: .milliseconds(300)), log: { _ in })
        let token = try await writer.token("ann")
        let cursor = try await Self.changes(quiet, token: token, since: nil, wait: 0).nextCursor
        let poll = Task { try await Self.changes(quiet, token: token, since: cursor, wait: 30) }
        try #require(await eventually { await quiet.notifier.waiterCount == 1 })

        // When the other instance saves a note.
        let id = ServerHarness.uuid()
        let (page, elapsed) = try await Self.timed(poll) { await Self.put(writer.server, id, token: token) }

        // Then the poll answers with it at a re-check, long before its 30 s wait ends.
        #expect(page.changes.map(\.id) == [id])
        #expect(elapsed < .seconds(10), "answered after \(elapsed)")
        await quiet.shutDown()
    }

    // MARK: - Helpers

    /// A notes long-poll (30 s) on the harness's server from the account's current cursor, once
    /// the server holds it.
    static func startNotesPoll(_ harness: ServerHarness, token: String) async throws
        -> Task<ChangesPageDTO, any Error>
    {
        let cursor = try await harness.changes(token: token).nextCursor
        let server = harness.server
        let poll = Task { try await changes(server, token: token, since: cursor, wait: 30) }
        try #require(await eventually { await server.notifier.waiterCount == 1 })
        return poll
    }

    /// Runs `write` (which must succeed) and returns the poll's page and the time from the
    /// write's start to the poll's answer.
    static func timed<Page: Sendable>(
        _ poll: Task<Page, any Error>, _ write: () async -> HTTPResponse
    ) async throws -> (Page, Duration) {
        let started = ContinuousClock.now
        let response = await write()
        try #require(response.status == 200, "PUT answered \(response.status): \(response.text)")
        let page = try await poll.value
        return (page, ContinuousClock.now - started)
    }

    static func put(_ server: NotesServer, _ id: String, token: String) async -> HTTPResponse {
        await server.handle(
            HTTPRequest(
                method: "PUT", path: WireRoutes.note(id),
                headers: ["Authorization": "Bearer \(token)", "Idempotency-Key": UUID().uuidString],
                body: WireJSON.encode(PutNoteRequestDTO(payload: "p", baseVersion: nil, baseVersionTag: nil))))
    }

    static func changes(_ server: NotesServer, token: String, since: String?, wait: Int) async throws
        -> ChangesPageDTO
    {
        var query = ["wait": "\(wait)"]
        if let since { query["since"] = since }
        let response = await server.handle(
            HTTPRequest(
                method: "GET", path: WireRoutes.changes, query: query, headers: ["Authorization": "Bearer \(token)"]))
        try #require(response.status == 200, "changes answered \(response.status): \(response.text)")
        return try response.decoded(ChangesPageDTO.self)
    }
}
