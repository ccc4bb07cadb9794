import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// The PUT answer written directly (issue 13 part 6) is `WireJSON.encode`'s bytes exactly.
struct PutNoteResponseJSONTests {
    static let answers = [
        PutNoteResponseDTO(
            version: 1, cursor: "AcOKm-_x0", previousCursor: "AbC_-9", versionTag: "123456789012345"),
        PutNoteResponseDTO(version: 42),
        PutNoteResponseDTO(version: 7, cursor: "c1", previousCursor: nil, versionTag: nil),
        PutNoteResponseDTO(version: 7, cursor: nil, previousCursor: "p1", versionTag: "3"),
        PutNoteResponseDTO(version: Int.max, cursor: "a/b", previousCursor: "", versionTag: "0"),
        // Strings JSON escapes go through WireJSON itself.
        PutNoteResponseDTO(version: 2, cursor: #"a"b"#, previousCursor: #"a\b"#, versionTag: "t\u{1}"),
        PutNoteResponseDTO(version: 2, cursor: "é", previousCursor: "\u{7F}", versionTag: "\n"),
    ]

    @Test(arguments: answers)
    func writesWireJSONsBytes(_ answer: PutNoteResponseDTO) {
        #expect(answer.wireJSON == WireJSON.encode(answer))
    }
}
