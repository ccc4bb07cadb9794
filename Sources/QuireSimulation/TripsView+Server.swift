import QuireClient
import QuireServer
import QuireTrips
import QuireWire

// MARK: - The server's trips, opened

extension TripsView {
    /// The server's live trips and items, opened with the keys the account's devices hold: what
    /// every converged device must show.
    init(server storage: some TripStorage, account: QuireServer.AccountID, keyrings: [TripID: TripKeyring])
        async throws
    {
        self.init()
        guard case .page(let entries, _, _) = try await storage.tripsFeed(account: account, since: nil, limit: 10_000)
        else { throw SimulationError("cannot list the server's trips") }
        for entry in entries where !entry.deleted {
            guard let id = TripID(entry.id), let snapshot = try await storage.tripSnapshot(entry.id, account: account)
            else { continue }
            guard let keyring = keyrings[id] else { throw SimulationError("no device holds the key of trip \(id)") }
            let sealer = TripSealer(trip: id, keyring: keyring)
            var byItem: [String: [String: String]] = [:]
            // Membership entries are the server's plain text, not values the devices show as fields.
            for field in snapshot.fields where !field.field.hasPrefix(WireRoutes.memberFieldPrefix) {
                let item = field.item.flatMap(ItemID.init)
                guard let value = try sealer.open(field.value, item: item, field: field.field) else { continue }
                byItem[field.item ?? "-", default: [:]][field.field] = value
            }
            for (item, fields) in byItem where fields[TripField.deleted.rawValue] != "true" {
                for (field, value) in fields where field != TripField.deleted.rawValue {
                    shown["\(id)/\(item)/\(field)"] = value
                }
            }
        }
    }
}

// MARK: - The server's unseen edits

extension TripsView {
    /// The values of deleted items that their delete had not seen (written after the newest
    /// revision of the item its deleter had seen), by `trip/item/field` key: what every member's
    /// device must offer back to restore.
    static func unseenEdits(
        server storage: some TripStorage, account: QuireServer.AccountID, keyrings: [TripID: TripKeyring]
    ) async throws -> Set<String> {
        guard case .page(let entries, _, _) = try await storage.tripsFeed(account: account, since: nil, limit: 10_000)
        else { throw SimulationError("cannot list the server's trips") }
        var unseen: Set<String> = []
        for entry in entries where !entry.deleted {
            guard let id = TripID(entry.id), let snapshot = try await storage.tripSnapshot(entry.id, account: account),
                let keyring = keyrings[id]
            else { continue }
            let sealer = TripSealer(trip: id, keyring: keyring)
            let tombstones = snapshot.fields.filter {
                $0.item != nil && $0.field == TripField.deleted.rawValue && $0.value == "true"
            }
            for tombstone in tombstones {
                let seen = tombstone.seenRevision ?? tombstone.revision
                for field in snapshot.fields
                where field.item == tombstone.item && field.field != TripField.deleted.rawValue
                    && field.revision > seen && field.revision < tombstone.revision
                {
                    let item = field.item.flatMap(ItemID.init)
                    guard let value = try? sealer.open(field.value, item: item, field: field.field), !value.isEmpty
                    else { continue }
                    unseen.insert("\(id)/\(field.item ?? "-")/\(field.field)")
                }
            }
        }
        return unseen
    }
}
