import Foundation

/// The form the server issues: the cursor's numbers in fixed width, sealed for one account's
/// feed (``CursorSeal``).
///
/// The body is one flags byte (1: the position has a mark; 2: a full listing's start follows;
/// 4: that start has a mark) and then big-endian 64-bit numbers: the sequence and its mark,
/// then, in a listing, the start's sequence and mark. A missing mark is written as 0 and its
/// flag left clear, so a cursor reads back exactly as it was issued.
extension ChangeCursor {
    /// Parses a cursor sent back for `scope`: a sealed one, or a plain form of earlier servers;
    /// nil for anything else (a sealed cursor of another account or feed included).
    init?(text: String, seal: CursorSeal, scope: CursorScope) {
        guard let body = seal.open(text, scope: scope) else {
            self.init(plainText: text)
            return
        }
        guard let flags = body.first, flags & ~7 == 0, body.count == (flags & 2 == 0 ? 17 : 33) else {
            return nil
        }
        let numbers = stride(from: 1, to: body.count, by: 8).map { Self.int64(body, at: $0) }
        guard numbers.allSatisfy({ $0 >= 0 }) else { return nil }
        let position = FeedPosition(seq: numbers[0], mark: flags & 1 == 0 ? nil : numbers[1])
        let start =
            flags & 2 == 0 ? nil : FeedPosition(seq: numbers[2], mark: flags & 4 == 0 ? nil : numbers[3])
        self.init(position: position, listingStart: start)
    }

    /// The cursor sealed for `scope`.
    func text(seal: CursorSeal, scope: CursorScope) -> String {
        var flags: UInt8 = position.mark == nil ? 0 : 1
        if let listingStart { flags |= listingStart.mark == nil ? 2 : 6 }
        var body = Data(capacity: 33)
        body.append(flags)
        Self.append(position.seq, to: &body)
        Self.append(position.mark ?? 0, to: &body)
        if let listingStart {
            Self.append(listingStart.seq, to: &body)
            Self.append(listingStart.mark ?? 0, to: &body)
        }
        return seal.seal(body, scope: scope)
    }

    static func append(_ number: Int64, to body: inout Data) {
        withUnsafeBytes(of: number.bigEndian) { body.append(contentsOf: $0) }
    }

    static func int64(_ body: Data, at offset: Int) -> Int64 {
        body.dropFirst(offset).prefix(8).reduce(0) { $0 << 8 | Int64($1) }
    }
}
