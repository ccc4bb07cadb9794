import Foundation
import QuireDomain
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireClient

/// A pull opens a page's payloads in slices across the cores, off the database actor; the notes
/// must come out exactly as one core would open them: in the page's order, bad ones counted.
@Suite struct OpenedPageTests {
    @Test(arguments: [1, 2, 4]) func slicesOpenThePageInItsOrder(lanes: Int) async throws {
        let codec = PlainPayloadCodec()
        var changes: [NoteChangeDTO] = []
        for index in 0..<500 {
            let id = NoteID()
            let payload =
                index % 97 == 5
                ? "not a payload"
                : try codec.seal(NoteContent(title: "note \(index)", body: "body"), noteID: id)
            changes.append(
                NoteChangeDTO(
                    id: id.description, version: 1, updatedAt: Date(), deleted: false,
                    payload: index % 50 == 7 ? nil : payload, ownWrite: index % 50 == 7 ? true : nil,
                    versionTag: "1"))
        }
        let page = ChangesPageDTO(changes: changes, nextCursor: "c", hasMore: false)

        let serial = await OpenedPage.open(page, codec: codec, lanes: 1)
        let sliced = await OpenedPage.open(page, codec: codec, lanes: lanes)

        #expect(sliced.notes == serial.notes)
        #expect(sliced.own == serial.own)
        #expect(sliced.undecryptable == serial.undecryptable)
        #expect(serial.own.count == 10)
        #expect(serial.undecryptable == 6)
        #expect(serial.notes.count == 500 - 10 - 6)
        #expect(
            serial.notes.map(\.id.description)
                == changes.filter { $0.ownWrite == nil && $0.payload != "not a payload" }.map(\.id))
    }
}
