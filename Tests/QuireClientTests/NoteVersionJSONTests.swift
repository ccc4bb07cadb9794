import Foundation
import QuireClient
import QuireDomain
import Testing

/// `quire history --json` is written directly (`NoteVersionJSON.list`, for speed): it must be
/// exactly what `JSONEncoder` writes with the CLI's settings, whatever the texts hold.
struct NoteVersionJSONTests {
    static let savedAt = Date(timeIntervalSince1970: 1_764_000_000)

    static let lists: [[NoteVersion]] = [
        [],
        [
            NoteVersion(
                version: 5, savedAt: savedAt, title: "Groceries", body: "oat milk\nbread", typedOn: nil,
                typedHere: true, isCurrent: true),
            NoteVersion(
                version: nil, localID: 12, savedAt: savedAt.addingTimeInterval(-90), title: "",
                body: "refused / text", typedOn: DeviceLabel(id: "d2", name: "phone"), typedHere: false),
        ],
        [
            NoteVersion(
                version: 1, savedAt: savedAt, title: "quote \" backslash \\ tab \t nul \u{0} é ☃ \u{2028}",
                body: "line\nbreak \u{1F} 🙂", typedOn: DeviceLabel(id: "d3", name: "laptop \"work\""),
                typedHere: false)
        ],
    ]

    @Test(arguments: lists)
    func theDirectJSONIsTheEncodersByteForByte(_ versions: [NoteVersion]) throws {
        let direct = try NoteVersionJSON.list(versions)
        let encoded = try NoteVersionJSON.encoder().encode(versions.map(NoteVersionJSON.init))

        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
    }
}
