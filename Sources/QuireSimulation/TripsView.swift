import QuireClient
import QuireTrips

/// A device's trips as the checks read them: each field's shown value by its key
/// (`trip/item/field`, `-` for the trip itself), and, for the ledger, every value the person can
/// see there, conflicts included.
struct TripsView: Equatable {
    /// Shown values of live trips and live items, by field key.
    var shown: [String: String] = [:]
    /// Fields whose change the server refused: they show this device's value by design.
    var rejected: Set<String> = []
    /// Everything the person can see and get back, as pseudo-notes the ``TextLedger`` reads: each
    /// shown value, each conflict's own value (`key#mine`), each edit kept by an item deleted
    /// while edited (`key#deleted`), each change held by a trip deleted while changed
    /// (`key#deletedTrip`).
    var visible: [NoteSnapshot] = []

    /// The fields the ledger owes text in (order keys, kinds and tombstones are no typed text).
    static let typedFields: Set<TripField> = [.title, .notes, .location, .start]

    init() {}

    init(_ database: TripsDatabase) async throws {
        for summary in try await database.trips().sorted(by: { $0.id.description < $1.id.description }) {
            guard let trip = try await database.trip(summary.id), !trip.isDeleted else { continue }
            add(trip.fields, prefix: "\(trip.id)/-")
            for item in trip.items {
                add(item.fields, prefix: "\(trip.id)/\(item.id)")
            }
            for item in trip.deletedItemsWithConflicts {
                for conflict in item.fields.values.compactMap(\.conflict) {
                    for (field, value) in conflict.editedValues ?? [:] {
                        note("\(trip.id)/\(item.id)/\(field.rawValue)#deleted", value)
                    }
                }
            }
        }
        for offer in try await database.conflicts() where offer.isTripDeletedWhileChanged {
            for change in try await database.changesOfDeletedTrip(offer.trip) {
                guard let field = TripField(rawValue: change.field), Self.typedFields.contains(field) else { continue }
                note("\(offer.trip)/\(change.item?.description ?? "-")/\(change.field)#deletedTrip", change.value)
            }
        }
    }

    private mutating func add(_ fields: [TripField: TripFieldState], prefix: String) {
        for (field, state) in fields where field != .deleted {
            let key = "\(prefix)/\(field.rawValue)"
            if let value = state.value { shown[key] = value }
            if state.rejectedReason != nil { rejected.insert(key) }
            guard Self.typedFields.contains(field) else { continue }
            note(key, state.value)
            if let conflict = state.conflict { note(key + "#mine", conflict.mine) }
        }
    }

    private mutating func note(_ key: String, _ value: String?) {
        guard let value, !value.isEmpty else { return }
        visible.append(NoteSnapshot(id: key, title: "", body: value, conflictOf: nil))
    }

    /// What differs between two converged devices, ignoring fields either refused: one line per
    /// key.
    func differences(from other: TripsView) -> [String] {
        let skipped = rejected.union(other.rejected)
        let keys = Set(shown.keys).union(other.shown.keys).subtracting(skipped)
        return keys.sorted().compactMap { key in
            shown[key] == other.shown[key]
                ? nil
                : "\(key): \(shown[key].map { "\"\($0)\"" } ?? "none") vs \(other.shown[key].map { "\"\($0)\"" } ?? "none")"
        }
    }
}
