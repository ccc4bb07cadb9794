import QuireWire

/// A request of one trip's waiting ops, frozen for sending: its opId and its ops with their sealed
/// values, fixed in the database before the first send, so every resend is the same request.
struct TripOpsRequest: Sendable, Hashable {
    var trip: TripID
    var opID: String
    /// In send order; each has its sealed value.
    var ops: [TripsStoredOp]

    var dto: TripOpsRequestDTO {
        TripOpsRequestDTO(
            opId: opID,
            ops: ops.map { op in
                TripOpDTO(
                    item: op.item?.description, field: op.field, value: op.sealed?.value,
                    valueHash: op.sealed?.valueHash, baseRevision: op.baseRevision)
            })
    }
}
