import Foundation

extension Data {
    /// Bytes from hex text; spaces are ignored so long vectors can be grouped as published.
    /// Traps on malformed text: a typo in a test vector should fail loudly.
    init(hex: String) {
        let digits = Array(hex.filter { !$0.isWhitespace })
        precondition(digits.count.isMultiple(of: 2), "odd-length hex: \(hex)")
        self.init(
            stride(from: 0, to: digits.count, by: 2).map { index in
                guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else {
                    preconditionFailure("bad hex: \(hex)")
                }
                return byte
            })
    }

    /// Lowercase hex.
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
