import Foundation

/// The form the server issues: revision, sequence and mark as big-endian 64-bit numbers, sealed
/// for one member's feed of one trip (``CursorSeal``), so neither the trip's revision count nor
/// the server-wide sequence can be read from it.
extension TripChangeCursor {
    /// Parses a cursor of `trip` sent back by `account`: a sealed one, or the MAC'd `t1` form
    /// of earlier servers; nil for anything else (a cursor of another trip or member included).
    init?(text: String, trip: String, account: AccountID, seal: CursorSeal) {
        guard let body = seal.open(text, scope: .trip(trip, account)) else {
            self.init(text: text, trip: trip, key: seal.legacyTripKey)
            return
        }
        guard body.count == 24 else { return nil }
        let numbers = stride(from: 0, to: 24, by: 8).map { ChangeCursor.int64(body, at: $0) }
        guard numbers.allSatisfy({ $0 >= 0 }), numbers[0] <= Int64(Int.max) else { return nil }
        self.init(
            position: TripPosition(
                revision: Int(numbers[0]), feed: FeedPosition(seq: numbers[1], mark: numbers[2])))
    }

    /// The cursor sealed for `account`'s feed of `trip`. A position without a mark is written
    /// with 0, as the `t1` form did.
    func text(trip: String, account: AccountID, seal: CursorSeal) -> String {
        var body = Data()
        ChangeCursor.append(Int64(position.revision), to: &body)
        ChangeCursor.append(position.feed.seq, to: &body)
        ChangeCursor.append(position.feed.mark ?? 0, to: &body)
        return seal.seal(body, scope: .trip(trip, account))
    }
}
