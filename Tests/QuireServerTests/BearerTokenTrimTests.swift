import Foundation
import Testing

@testable import QuireServer

/// The bearer token's trim (issue 13 part 6) is Foundation's `trimmingCharacters(in: .whitespaces)`
/// for every text, with or without anything to trim.
struct BearerTokenTrimTests {
    static let texts: [Substring] = [
        "abc", "a", "A-_~.9", " abc", "abc ", "\tabc\t", "\u{00A0}abc", "abc\u{3000}", "a b",
        "\u{2003}", "", " ", "é", "abé", "éab", "ab\u{200B}", "\u{1680}x\u{202F}", "x\n", "\r\nx",
        "x\u{7F}", "\u{7F}x", "~x~",
    ]

    @Test(arguments: texts)
    func trimsAsFoundationDoes(_ text: Substring) {
        #expect(RequestValidation.trimmingWhitespace(text) == text.trimmingCharacters(in: .whitespaces))
    }
}
