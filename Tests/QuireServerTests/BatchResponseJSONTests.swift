import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// A batch's answer written directly (issue 13 part 6) is `WireJSON.encode`'s bytes exactly,
/// whatever mix of results it holds.
struct BatchResponseJSONTests {
    private static func result(
        _ status: Int, version: Int? = nil, cursor: String? = nil, previous: String? = nil, tag: String? = nil,
        note: NoteChangeDTO? = nil, error: ErrorResponseDTO.Detail? = nil, baseKnown: Bool? = nil,
        replayed: Bool? = nil
    ) -> BatchResultDTO {
        var result = BatchResultDTO(
            status: status, version: version, cursor: cursor, previousCursor: previous, note: note, error: error,
            versionTag: tag)
        result.baseKnown = baseKnown
        result.replayed = replayed
        return result
    }

    static let answers: [BatchResponseDTO] = [
        BatchResponseDTO(results: []),
        BatchResponseDTO(results: [result(200, version: 1, cursor: "AcOKm-_x0", previous: "AbC_-9", tag: "12345")]),
        BatchResponseDTO(results: [
            result(200, version: 3, cursor: "c", previous: "p", tag: "t", replayed: true),
            result(204),
            result(204, replayed: false),
            result(
                409,
                note: NoteChangeDTO(
                    id: "n", version: 2, updatedAt: Date(timeIntervalSince1970: 5), deleted: false, payload: "x"),
                baseKnown: false),
            result(404, error: ErrorResponseDTO.Detail(code: "not_found", message: "no \"such\" note")),
            result(200, version: Int.max, cursor: "a/b", previous: "", tag: "0", baseKnown: true),
        ]),
        // Strings JSON escapes go through WireJSON itself.
        BatchResponseDTO(results: [
            result(200, version: 2, cursor: #"a"b"#, previous: "p", tag: "t"),
            result(200, version: 2, cursor: "c", previous: "é", tag: "\n"),
            result(200, version: 2, cursor: "c", previous: "p", tag: "\u{7F}"),
        ]),
    ]

    @Test(arguments: answers)
    func writesWireJSONsBytes(_ answer: BatchResponseDTO) {
        #expect(answer.wireJSON == WireJSON.encode(answer))
    }
}
