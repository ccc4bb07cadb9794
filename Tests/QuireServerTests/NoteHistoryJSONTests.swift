import Foundation
import QuireWire
import Testing

/// The history page's JSON is written directly (`NoteHistoryDTO.wireJSON`, for speed): it must
/// be exactly what `WireJSON.encode` writes, whatever the strings hold, and decode to the page.
struct NoteHistoryJSONTests {
    static let savedAt = Date(timeIntervalSince1970: 1_764_000_000)

    static let pages: [NoteHistoryDTO] = [
        NoteHistoryDTO(
            id: "5151e000-0000-4000-8000-000000000001", version: 3, versionTag: "42", deleted: false,
            updatedAt: savedAt,
            versions: [
                NoteVersionDTO(version: 3, savedAt: savedAt, payload: "AAEC/+9zZQ==", versionTag: "42", current: true),
                NoteVersionDTO(version: 2, savedAt: savedAt.addingTimeInterval(-60), payload: "cGF5bG9hZA=="),
            ], hasMore: true),
        NoteHistoryDTO(
            id: "tag-less", version: 7, versionTag: nil, deleted: true, updatedAt: savedAt, versions: [],
            hasMore: false),
        // Strings a payload should never hold, but the writer must escape as the encoder does.
        NoteHistoryDTO(
            id: "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7}", version: 1,
            versionTag: "é ☃ \u{2028} \u{7F}", deleted: false, updatedAt: savedAt,
            versions: [
                NoteVersionDTO(
                    version: 1, savedAt: savedAt, payload: "line\nbreak \"quoted\" \u{1F} done", versionTag: nil,
                    current: false)
            ], hasMore: false),
    ]

    @Test(arguments: pages)
    func theDirectJSONIsTheEncodersByteForByte(_ page: NoteHistoryDTO) throws {
        let direct = page.wireJSON()

        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: WireJSON.encode(page), as: UTF8.self))
        #expect(try WireJSON.decoder().decode(NoteHistoryDTO.self, from: direct) == page)
    }
}
