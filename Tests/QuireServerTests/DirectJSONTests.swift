import Testing

@testable import QuireServer

/// `DirectJSON.needsNoEscape` reads eight bytes at a time: it must say exactly what a check of
/// each byte says, wherever in a word the byte falls.
struct DirectJSONTests {
    @Test func eachByteValueAtEachPlaceOfAWordIsJudgedAsAloneByItself() {
        for value in 0...0x7F {
            let scalar = Character(Unicode.Scalar(UInt8(value)))
            for place in 0..<17 {
                let text =
                    String(repeating: "a", count: place) + String(scalar) + String(repeating: "b", count: 16 - place)
                #expect(
                    DirectJSON.needsNoEscape(text) == !DirectJSON.isByteToEscape(UInt8(value)),
                    "byte \(value) at \(place)")
            }
        }
    }

    @Test func textBeyondASCIIAndMixedTextAreJudgedAsByteByByte() {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "a", "Z", "0", "-", "_", "/", "+", "=", " ", "~", "\"", "\\", "\n", "\u{7F}", "é", "漢", "👋", "\u{0}",
        ]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                pieces[Int.random(in: 0..<(Bool.random(using: &generator) ? 10 : pieces.count), using: &generator)]
            }.joined()
            #expect(
                DirectJSON.needsNoEscape(text) == !text.utf8.contains(where: DirectJSON.isByteToEscape),
                "\(text.debugDescription)")
        }
    }
}
