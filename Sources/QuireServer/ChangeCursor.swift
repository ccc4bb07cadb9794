import Foundation
import QuireCrypto

/// The changes feed's bookmark: a position in the server-wide sequence, sent as opaque text.
///
/// The text is base64url of `c1:<seq>` for an incremental pull, or `f2:<seq>:<listingStart>` in
/// the middle of a full listing; the digit versions the format so it can change without
/// misreading old cursors. `f1:<seq>`, the full-listing form of earlier servers, is still read: as
/// a listing that began at `seq`, which keeps the rule those cursors were answered by. Clients
/// must not build or read it.
struct ChangeCursor: Equatable, Sendable {
    /// Every change with a larger sequence number comes after this cursor.
    var seq: Int64
    /// The account's feed position when the full listing this cursor continues read its first
    /// page (that page's `highestSeq`); nil for an incremental cursor. A purge up to this
    /// position removed only tombstones of notes the listing never showed, so it cannot expire
    /// the listing (see ``ServerStorage/changes(account:continuingFullListingAfter:listingStart:limit:)``).
    var listingStart: Int64?

    init(seq: Int64, listingStart: Int64? = nil) {
        self.seq = seq
        self.listingStart = listingStart
    }

    /// The cursor continues a full listing (a first sync or a resync): its pages carry every
    /// payload, the reader's own writes included, since the device is rebuilding its copy.
    var fullListing: Bool { listingStart != nil }

    /// Parses cursor text; nil for anything this server did not produce.
    init?(text: String) {
        guard text.count <= 64, let data = Data(base64URLEncoded: text) else { return nil }
        let decoded = String(decoding: data, as: UTF8.self)
        let parts = decoded.split(separator: ":", omittingEmptySubsequences: false)
        let numbers = parts.dropFirst().compactMap(Self.number)
        guard numbers.count == parts.count - 1 else { return nil }
        switch (parts.first, numbers.count) {
        case ("c1", 1): self.init(seq: numbers[0])
        case ("f1", 1): self.init(seq: numbers[0], listingStart: numbers[0])
        case ("f2", 2): self.init(seq: numbers[0], listingStart: numbers[1])
        default: return nil
        }
    }

    var text: String {
        let plain = listingStart.map { "f2:\(seq):\($0)" } ?? "c1:\(seq)"
        return Data(plain.utf8).base64URLEncodedString()
    }

    /// 1 to 18 decimal digits, nothing else.
    private static func number(_ digits: Substring) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= "0" && $0 <= "9" })
        else { return nil }
        return Int64(digits)
    }
}
