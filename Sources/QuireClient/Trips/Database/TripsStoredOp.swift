import Foundation
import QuireSQLite
import QuireTrips

/// One outbox row as the database reads it.
package struct TripsStoredOp: Sendable, Hashable {
    package var seq: Int
    package var trip: TripID
    package var item: ItemID?
    package var field: String
    package var value: String?
    package var baseRevision: Int
    package var baseValue: String?
    /// The opId of the request this op is frozen into; nil while unsent.
    package var requestID: String?
    package var sealed: SealedFieldValue?
    package var rejectedReason: String?
    package var attempts: Int

    package var isUnsent: Bool { requestID == nil && rejectedReason == nil }

    /// The op as an edit to restore, started from its base.
    var asEdit: TripEditedValue { TripEditedValue(value, startedFrom: .init(baseValue)) }

    static let select = """
        SELECT seq, trip_id, item_id, field, value, base_revision, base_value, request_id,
               sealed_value, value_hash, rejected, rejected_reason, attempts
        FROM outbox
        """

    static func read(_ row: SQLiteRow) throws -> TripsStoredOp {
        guard let trip = TripID(row.text(1)) else {
            throw SQLiteError(code: 0, message: "malformed outbox row \(row.int(0))", sql: nil)
        }
        let requestID = row.optionalText(7)
        return TripsStoredOp(
            seq: row.int(0), trip: trip, item: ItemID(row.text(2)), field: row.text(3),
            value: row.optionalText(4), baseRevision: row.int(5), baseValue: row.optionalText(6),
            requestID: requestID,
            sealed: requestID == nil
                ? nil : SealedFieldValue(value: row.optionalText(8), valueHash: row.optionalText(9)),
            rejectedReason: row.bool(10) ? (row.optionalText(11) ?? "refused by the server") : nil,
            attempts: row.int(12))
    }
}

extension Optional where Wrapped == ItemID {
    /// The item's key in the tables: its id, or `''` for the trip's own fields.
    package var storageKey: String { self?.description ?? "" }
}
