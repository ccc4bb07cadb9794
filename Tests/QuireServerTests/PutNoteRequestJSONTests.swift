import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The single route's body a batch's put is fingerprinted as, written directly (issue 13 part 6),
/// is `WireJSON.encode`'s bytes exactly: otherwise a change sent in a batch and resent alone would
/// not be known as the same request.
struct PutNoteRequestJSONTests {
    static let bodies = [
        PutNoteRequestDTO(payload: "AcOKm-_x0AbC_-9", baseVersion: nil),
        PutNoteRequestDTO(payload: "p", baseVersion: 1),
        PutNoteRequestDTO(payload: "p", baseVersion: 42, baseVersionTag: "123456789012345"),
        PutNoteRequestDTO(payload: "a/b+c=", baseVersion: Int.max, baseVersionTag: ""),
        PutNoteRequestDTO(payload: String(repeating: "x", count: 4_000), baseVersion: nil, baseVersionTag: "0"),
        // Strings JSON escapes go through WireJSON itself.
        PutNoteRequestDTO(payload: #"a"b"#, baseVersion: nil),
        PutNoteRequestDTO(payload: #"a\b"#, baseVersion: 3, baseVersionTag: "t"),
        PutNoteRequestDTO(payload: "é", baseVersion: nil),
        PutNoteRequestDTO(payload: "p", baseVersion: 2, baseVersionTag: "\n"),
        PutNoteRequestDTO(payload: "\u{7F}\u{1}", baseVersion: nil),
    ]

    @Test(arguments: bodies)
    func writesWireJSONsBytes(_ body: PutNoteRequestDTO) {
        #expect(body.wireJSON == WireJSON.encode(body))
    }
}
