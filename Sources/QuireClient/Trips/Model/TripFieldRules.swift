import QuireTrips
import QuireWire

/// Which fields a trip and an item have, and what values they take. Pure.
///
/// A local edit is checked before it is queued, so nothing this device sends is malformed; values
/// that arrive from other devices are shown as they are (a kind or zone this version does not
/// know stays readable).
enum TripFieldRules {
    /// The fields a person edits directly (`deleted` changes only through delete and restore).
    static func editable(forItem: Bool) -> [TripField] {
        (forItem ? TripField.itemFields : TripField.tripFields).filter { $0 != .deleted }
    }

    /// Throws ``TripsDatabaseError`` `.invalidValue` when `field` is not one the trip (or item)
    /// has, or `value` is not what it holds: a kind, a `YYYY-MM-DD` date, a `LOCAL ZONE` time.
    static func check(_ field: TripField, _ value: String?, forItem: Bool) throws {
        guard editable(forItem: forItem).contains(field) else {
            throw TripsDatabaseError(
                .invalidValue, "\(forItem ? "an item" : "a trip") has no editable field \(field.rawValue)")
        }
        guard let value else { return }
        // Refused here, where the person types it, rather than at the sync, where the item's
        // other fields would reach the other members without it (an "(untitled)" item).
        guard value.utf8.count <= maxValueBytes else {
            throw TripsDatabaseError(
                .invalidValue,
                "\(field.rawValue) is too long to sync (\(value.utf8.count / 1024) KB; a field holds at most "
                    + "\(maxValueBytes / 1024) KB)")
        }
        let valid: Bool
        switch field {
        case .kind: valid = ItemKind(rawValue: value) != nil
        case .startDate, .endDate: valid = LocalDate(value) != nil
        case .start, .end: valid = ItineraryTime(fieldValue: value) != nil
        case .title, .notes, .location, .order, .deleted: valid = true
        }
        guard valid else {
            throw TripsDatabaseError(.invalidValue, "\(field.rawValue) cannot be \"\(value)\"")
        }
    }

    /// The most UTF-8 bytes a field's value may hold: what still fits in
    /// `WireRoutes.maxTripValueBytes` once sealed (a 12-byte nonce and a 16-byte tag, base64,
    /// an epoch mark of at most 16 characters).
    static let maxValueBytes = (WireRoutes.maxTripValueBytes - 16) / 4 * 3 - 28

    /// The plain values of the `deleted` field.
    static let deletedValue = "true"
    static let restoredValue = "false"
}

extension TripField {
    /// The field's name on the wire and in the tables.
    var name: String { rawValue }

    /// `deleted`: the one field whose value the server reads.
    var isTombstone: Bool { rawValue == WireRoutes.deletedField }
}
