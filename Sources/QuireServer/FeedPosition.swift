/// A position in one history of the server's changes: a sequence number and the random mark the
/// server stored with that number when it handed it out.
///
/// Sequence numbers alone do not name a history: a server restored from an older backup hands
/// the numbers after the backup out again, to other writes. Their marks differ (each is drawn
/// afresh), so a cursor the restored server never issued is recognised as such even once its
/// counter has passed the cursor's number (issue 9, defect 8).
public struct FeedPosition: Sendable, Hashable {
    public var seq: Int64
    /// The mark of `seq` in the history this position comes from: 1 to ``maxMark`` when the
    /// number had one; 0 when it had none (sequence 0, the start of every history; a number
    /// handed out before marks were stored; one whose mark was pruned); nil when unknown (a
    /// cursor of an older form, which carries no mark and is never checked).
    public var mark: Int64?

    public init(seq: Int64, mark: Int64?) {
        self.seq = seq
        self.mark = mark
    }

    /// Marks are drawn from 1 through this (48 bits): two histories that share a number share
    /// its mark by chance once in 2^48 draws, and a mark prints in at most 15 digits, which keeps
    /// cursors short.
    public static let maxMark: Int64 = (1 << 48) - 1

    /// A fresh random mark for a number being handed out.
    static func newMark() -> Int64 {
        Int64.random(in: 1...maxMark)
    }

    /// Whether a mark stored for `seq` (nil when none is) allows this position in the store's
    /// history. No stored mark: a number pruned, from before marks, or 0, so nothing to compare
    /// (the cursor's other rules decide). A stored mark must equal this one; a position that
    /// says "no mark" (0) does not match one either, because in one history a number never gains
    /// a mark after it was handed out: the number came back in another history.
    func matches(storedMark: Int64?) -> Bool {
        guard let mark, let storedMark else { return true }
        return mark == storedMark
    }
}
