import Foundation
import Testing

@testable import QuireDomain

struct UUIDTextTests {
    @Test func parsesWhatFoundationPrintsInEitherCase() {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.parse(uuid.uuidString) == uuid)
            #expect(UUIDText.parse(uuid.uuidString.lowercased()) == uuid)
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
