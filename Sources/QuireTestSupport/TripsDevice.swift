import Foundation
import QuireClient
import QuireTrips

/// A device in a ``TripsCluster``.
public struct TripsDevice: Sendable {
    public let name: String
    public let database: TripsDatabase
    /// Its network: script faults on it (a lost reply, offline).
    public let transport: FaultyTransport
    public let engine: TripsSyncEngine

    public init(name: String, database: TripsDatabase, transport: FaultyTransport, engine: TripsSyncEngine) {
        self.name = name
        self.database = database
        self.transport = transport
        self.engine = engine
    }

    @discardableResult
    public func sync() async -> SyncReport {
        await engine.syncOnce()
    }

    /// The trip as its screen shows it; nil when this device has none.
    public func trip(_ id: TripID) async throws -> TripRecord? {
        try await database.trip(id)
    }

    /// The item as its screen shows it, deleted or not.
    public func item(_ id: ItemID) async throws -> TripItemRecord? {
        try await database.item(id)
    }

    /// A trip's live items as `title@order` lines, in order: what two converged devices agree on.
    public func itinerary(_ trip: TripID) async throws -> [String] {
        try await database.trip(trip)?.items.map { "\($0.title)@\($0.order)" } ?? []
    }
}
