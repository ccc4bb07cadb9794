import QuireTrips
import QuireWire

/// A request of one trip's waiting ops, frozen for sending: its opId and its ops with their sealed
/// values, fixed in the database before the first send, so every resend is the same request.
package struct TripOpsRequest: Sendable, Hashable {
    package var trip: TripID
    package var opID: String
    /// In send order; each has its sealed value.
    package var ops: [TripsStoredOp]

    package var dto: TripOpsRequestDTO {
        TripOpsRequestDTO(
            opId: opID,
            ops: ops.map { op in
                TripOpDTO(
                    item: op.item?.description, field: op.field, value: op.sealed?.value,
                    valueHash: op.sealed?.valueHash, baseRevision: op.baseRevision)
            })
    }
}
