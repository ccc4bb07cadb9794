import Foundation
import QuireCrypto

/// The changes feed's bookmark: a position in the server-wide sequence, sent as opaque text.
///
/// The text is base64url of `c1:<seq>`, or `f1:<seq>` in the middle of a full listing; the `1`
/// versions the format so it can change without misreading old cursors. Clients must not build or
/// read it.
struct ChangeCursor: Equatable, Sendable {
    /// Every change with a larger sequence number comes after this cursor.
    var seq: Int64
    /// The cursor continues a full listing (a first sync or a resync): its pages carry every
    /// payload, the reader's own writes included, since the device is rebuilding its copy.
    var fullListing: Bool

    init(seq: Int64, fullListing: Bool = false) {
        self.seq = seq
        self.fullListing = fullListing
    }

    /// Parses cursor text; nil for anything this server did not produce.
    init?(text: String) {
        guard text.count <= 64, let data = Data(base64URLEncoded: text) else { return nil }
        let decoded = String(decoding: data, as: UTF8.self)
        guard decoded.hasPrefix("c1:") || decoded.hasPrefix("f1:") else { return nil }
        fullListing = decoded.hasPrefix("f1:")
        let digits = decoded.dropFirst(3)
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }),
            let seq = Int64(digits)
        else { return nil }
        self.seq = seq
    }

    var text: String {
        Data("\(fullListing ? "f1" : "c1"):\(seq)".utf8).base64URLEncodedString()
    }
}
