import Foundation
import QuireDomain
import QuireWire
import Testing

struct UUIDTextTests {
    @Test func parsesWhatFoundationPrintsInEitherCase() {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
        }
    }

    /// The client's parse and the server's lowercasing accept exactly the same texts: every
    /// printable byte at every place of an id.
    @Test func parseAndLowercasedAgreeOnEveryByteAtEveryPlace() {
        let id = Array(UUID().uuidString.utf8)
        for place in 0..<36 {
            for byte in UInt8(32)...UInt8(126) {
                var text = id
                text[place] = byte
                let raw = String(decoding: text, as: UTF8.self)
                let parsed = UUIDText.parse(raw)
                #expect(UUIDText.lowercased(raw) == parsed?.uuidString.lowercased(), "byte \(byte) at \(place)")
            }
        }
    }

    @Test(arguments: [
        "", "not a uuid", "3f2a9c1e-acbc-471c-a460-caf35f995bc", "3f2a9c1e-acbc-471c-a460-caf35f995bc00",
        "3f2a9c1eXacbc-471c-a460-caf35f995bc0", "3f2a9c1e-acbc-471c-a460-caf35f995bcg",
        "{3f2a9c1e-acbc-471c-a460-caf35f995bc}",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(UUIDText.parse(text) == nil)
        #expect(NoteID(text) == nil)
    }
}
