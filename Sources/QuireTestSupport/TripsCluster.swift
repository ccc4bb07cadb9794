import Foundation
import QuireClient
import QuireCrypto
import QuireTrips
import QuireWire

/// One in-memory trips server (``InMemoryTripsServer``) and any number of devices of one account
/// (real trips databases, real engines, the live ``TripsAPIClient`` over the server's HTTP face,
/// each through its own ``FaultyTransport``): the trips' two-device tests, with explicit edits and
/// syncs and no sleeps.
public final class TripsCluster: @unchecked Sendable {
    // Devices are added before use and then only read; each device's parts are Sendable.
    public let directory: TemporaryDirectory
    public let server: InMemoryTripsServer
    public let account: String
    /// The account's notes key, shared by its devices as after a real sign-in.
    public let notesKey = SymmetricKey256.random()

    public init(account: String = "alice", server: InMemoryTripsServer = InMemoryTripsServer()) throws {
        directory = try TemporaryDirectory(prefix: "quire-trips")
        self.server = server
        self.account = account
    }

    /// Adds a device with its own database. `direct`: the engine talks to the server's typed
    /// API (``InMemoryTripsAPI``) instead of HTTP through the live client.
    public func addDevice(
        _ name: String, pageLimit: Int = WireRoutes.defaultPageLimit, opsLimit: Int = WireRoutes.maxTripOps,
        direct: Bool = false, now: @escaping @Sendable () -> Date = Date.init
    ) throws -> TripsDevice {
        let database = try TripsDatabase(fileURL: directory.path(name).appendingPathComponent("trips.sqlite"), now: now)
        let transport = FaultyTransport(wrapping: InMemoryTripsTransport(server: server))
        let api: TripsAPI =
            direct
            ? InMemoryTripsAPI(server: server, account: account)
            : TripsAPIClient(transport: transport, tokens: StaticTokenProvider(token: account))
        let engine = TripsSyncEngine(
            database: database, api: api, keys: TripKeyWrapping(notesKey: notesKey, account: AccountID(account)),
            account: AccountID(account), pageLimit: pageLimit, opsLimit: opsLimit, now: now)
        return TripsDevice(name: name, database: database, transport: transport, engine: engine)
    }

    public func remove() { directory.remove() }
}
