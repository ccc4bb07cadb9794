import Foundation
import QuireClient
import QuireCrypto
import QuireTrips

/// A device of the trip-sync benchmark: its own `trips.sqlite` (``TripsDatabase`` as shipped),
/// its own session of the bench account, and the shipped ``TripsSyncEngine`` over the live
/// ``TripsAPIClient`` on loopback, through a ``CountingTransport`` that records every exchange.
struct TripBenchDevice {
    static let account = AccountID("bench")

    let name: String
    let database: TripsDatabase
    let engine: TripsSyncEngine
    let counting: CountingTransport

    /// - Parameter notesKey: the account's notes key, the same on every device of the account
    ///   (as after each device's sign-in): it wraps and unwraps the trip keys.
    init(_ name: String, directory: URL, server: BenchServer, notesKey: SymmetricKey256) async throws {
        self.name = name
        database = try TripsDatabase(fileURL: directory.appendingPathComponent("trips.sqlite"))
        try await database.bindAccount(Self.account)
        let token = try await server.core.openSession(username: server.username, deviceName: name)
        counting = CountingTransport(
            wrapping: LiveTransport.make(baseURL: server.baseURL), host: "\(server.host.host):\(server.host.port)")
        engine = TripsSyncEngine(
            database: database, api: TripsAPIClient(transport: counting, tokens: StaticTokenProvider(token: token)),
            keys: TripKeyWrapping(notesKey: notesKey, account: Self.account), account: Self.account)
    }

    /// One `syncOnce` of the engine, timed, with the exchanges it made. Throws when the run
    /// failed or left anything refused or in conflict.
    func sync(_ label: String) async throws -> TripSyncStep {
        counting.reset()
        let (report, duration) = await measureAsync { await engine.syncOnce() }
        guard report.failure == nil, report.refused == 0, report.fieldConflicts == 0, report.undecryptable == 0 else {
            throw BenchFailure("trip-sync: \(label) (\(name)) failed: \(report)")
        }
        return TripSyncStep(label: label, report: report, duration: duration, exchanges: counting.exchanges)
    }
}
