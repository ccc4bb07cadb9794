import Foundation
import QuireCrypto

/// The changes feed's bookmark: a position in one history of the server-wide sequence, sent as
/// opaque text.
///
/// The server issues it sealed (`ChangeCursor+Sealed.swift`), so a client cannot read the
/// server-wide sequence from it. Its plain forms, issued by earlier servers and still read, are
/// base64url of `c2:<seq>:<mark>` for an incremental pull, or
/// `f3:<seq>:<listingStart>:<seqMark>:<listingStartMark>` in the middle of a full listing; each
/// mark is the one the server stored with that number (see ``FeedPosition``). The digit versions
/// the format so it can change without misreading old cursors. The forms of earlier servers carry
/// no marks and are still read, unchecked: `c1:<seq>`, `f2:<seq>:<listingStart>`, and `f1:<seq>`
/// (a listing that began at `seq`, which keeps the rule those cursors were answered by). Clients
/// must not build or read it.
struct ChangeCursor: Equatable, Sendable {
    /// Every change with a larger sequence number comes after this cursor.
    var position: FeedPosition
    /// The account's feed position when the full listing this cursor continues read its first
    /// page (that page's highest position); nil for an incremental cursor. A purge up to this
    /// position removed only tombstones of notes the listing never showed, so it cannot expire
    /// the listing (see ``ServerStorage/changes(account:continuingFullListingAfter:listingStart:limit:)``).
    var listingStart: FeedPosition?

    init(position: FeedPosition, listingStart: FeedPosition? = nil) {
        self.position = position
        self.listingStart = listingStart
    }

    /// A cursor without marks, as earlier servers issued them.
    init(seq: Int64, listingStart: Int64? = nil) {
        self.init(
            position: FeedPosition(seq: seq, mark: nil),
            listingStart: listingStart.map { FeedPosition(seq: $0, mark: nil) })
    }

    var seq: Int64 { position.seq }

    /// The cursor continues a full listing (a first sync or a resync): its pages carry every
    /// payload, the reader's own writes included, since the device is rebuilding its copy.
    var fullListing: Bool { listingStart != nil }

    /// Parses the plain text of earlier servers; nil for anything else.
    init?(plainText text: String) {
        guard text.count <= 128, let data = Data(base64URLEncoded: text) else { return nil }
        let decoded = String(decoding: data, as: UTF8.self)
        let parts = decoded.split(separator: ":", omittingEmptySubsequences: false)
        let n = parts.dropFirst().compactMap(Self.number)
        guard n.count == parts.count - 1 else { return nil }
        switch (parts.first, n.count) {
        case ("c2", 2): self.init(position: FeedPosition(seq: n[0], mark: n[1]))
        case ("f3", 4):
            self.init(
                position: FeedPosition(seq: n[0], mark: n[2]),
                listingStart: FeedPosition(seq: n[1], mark: n[3]))
        case ("c1", 1): self.init(seq: n[0])
        case ("f1", 1): self.init(seq: n[0], listingStart: n[0])
        case ("f2", 2): self.init(seq: n[0], listingStart: n[1])
        default: return nil
        }
    }

    /// The plain text, as earlier servers issued it (tests build old cursors with it): the marked
    /// form when every position has its mark; else the older, unchecked form, as
    /// for the pages that continue a listing an older cursor began: a mark the cursor never had
    /// cannot be written as "none" (0), which would not match the number's stored one.
    var plainText: String {
        let plain: String
        switch (position.mark, listingStart) {
        case (let mark?, nil): plain = "c2:\(seq):\(mark)"
        case (let mark?, let start?) where start.mark != nil:
            plain = "f3:\(seq):\(start.seq):\(mark):\(start.mark ?? 0)"
        case (_, let start?): plain = "f2:\(seq):\(start.seq)"
        case (nil, nil): plain = "c1:\(seq)"
        }
        return Data(plain.utf8).base64URLEncodedString()
    }

    /// 1 to 18 decimal digits, nothing else.
    static func number(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= "0" && $0 <= "9" })
        else { return nil }
        return Int64(digits)
    }
}
