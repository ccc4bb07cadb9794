import Foundation
import QuireCrypto

/// A trip changes feed's bookmark, sent as opaque text that names one trip.
///
/// The server issues it sealed (`TripChangeCursor+Sealed.swift`). The form of earlier servers,
/// still read, is base64url of `t1:<revision>:<seq>:<mark>:<tag>`: the trip revision seen, the
/// server-wide position of the change that made it (so one from a history a restore forgot is
/// recognised, as with ``ChangeCursor``), and a tag, the first 12 bytes in hex of HMAC-SHA256
/// under a key only the server holds over the same text with the trip's id. A cursor of one
/// trip therefore cannot be presented (or edited into one) for another. `t1` versions the
/// format. Clients must not build or read it.
struct TripChangeCursor: Equatable, Sendable {
    var position: TripPosition

    init(position: TripPosition) {
        self.position = position
    }

    /// The cursor's key: derived from the server's secret, so every instance of one deployment
    /// reads the others' cursors.
    static func key(serverSecret: Data) -> Data {
        HMAC.sha256(key: serverSecret, data: Data("quire trip changes cursor v1".utf8))
    }

    /// Parses the `t1` text of earlier servers for `trip`; nil for anything else.
    init?(text: String, trip: String, key: Data) {
        guard text.count <= 160, let data = Data(base64URLEncoded: text) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(
            separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "t1" else { return nil }
        let numbers = parts[1...3].compactMap(ChangeCursor.number)
        guard numbers.count == 3, numbers[0] <= Int64(Int.max) else { return nil }
        let position = TripPosition(
            revision: Int(numbers[0]), feed: FeedPosition(seq: numbers[1], mark: numbers[2]))
        guard parts[4] == Self.tag(position, trip: trip, key: key) else { return nil }
        self.init(position: position)
    }

    /// The `t1` text for `trip`, as earlier servers issued it (tests build old cursors with it).
    /// A position without a mark (its number has none) is written with 0.
    func text(trip: String, key: Data) -> String {
        let body = Self.body(position)
        return Data("\(body):\(Self.tag(position, trip: trip, key: key))".utf8)
            .base64URLEncodedString()
    }

    private static func body(_ position: TripPosition) -> String {
        "t1:\(position.revision):\(position.feed.seq):\(position.feed.mark ?? 0)"
    }

    private static func tag(_ position: TripPosition, trip: String, key: Data) -> String {
        let mac = HMAC.sha256(key: key, data: Data("\(trip)\n\(body(position))".utf8))
        return HexText.string(mac.prefix(12))
    }
}
