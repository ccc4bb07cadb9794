/// An itinerary item as a screen shows it: each field's visible value and sync state.
public struct TripItemRecord: Sendable, Hashable {
    public var id: ItemID
    public var trip: TripID
    /// The fields that have a value, a waiting change or a conflict.
    public var fields: [TripField: TripFieldState]

    public init(id: ItemID, trip: TripID, fields: [TripField: TripFieldState]) {
        self.id = id
        self.trip = trip
        self.fields = fields
    }

    /// The visible value of `field`.
    public func value(_ field: TripField) -> String? { fields[field]?.value ?? nil }

    public var title: String { value(.title) ?? "" }
    /// nil when unset, or a kind this device does not know.
    public var kind: ItemKind? { value(.kind).flatMap(ItemKind.init(rawValue:)) }
    public var notes: String? { value(.notes) }
    public var location: String? { value(.location) }
    public var start: ItineraryTime? { value(.start).flatMap { ItineraryTime(fieldValue: $0) } }
    public var end: ItineraryTime? { value(.end).flatMap { ItineraryTime(fieldValue: $0) } }
    /// The order key (empty when unset); items sort by (key, id).
    public var order: String { value(.order) ?? "" }
    /// A tombstone: hidden from every list.
    public var isDeleted: Bool { value(.deleted) == "true" }

    /// Some field has a change waiting to be sent.
    public var hasPendingChanges: Bool { fields.values.contains { $0.isPending } }
    /// Some field waits for the person's choice.
    public var hasConflict: Bool { fields.values.contains { $0.conflict != nil } }
    /// Some change was refused by the server.
    public var hasRejectedChange: Bool { fields.values.contains { $0.rejectedReason != nil } }

    /// The order of a day's untimed items and of ties: by key, then by id, comparing bytes
    /// (`OrderKey.precedes`), the same on every device whatever a key holds.
    public static func ordered(_ a: TripItemRecord, _ b: TripItemRecord) -> Bool {
        if a.order != b.order { return OrderKey.precedes(a.order, b.order) }
        return OrderKey.precedes(a.id.description, b.id.description)
    }

    /// The item as ordering into days sees it.
    public var itineraryEntry: ItineraryEntry {
        ItineraryEntry(id: id.description, orderKey: order, start: start, end: end, isDeleted: isDeleted)
    }
}
