import Foundation
import QuireWire
import Testing

@testable import QuireServer

/// `RequestValidation.noteID`'s byte reader gives exactly what `UUID(uuidString:)` gives: the
/// same ids accepted, lowercased the same way, and the same ones refused.
struct NoteIDValidationTests {
    /// What the route answered before the byte reader: `UUID(uuidString:)` alone.
    private func throughFoundation(_ raw: String) -> String? {
        guard raw.count == 36, let uuid = UUID(uuidString: raw) else { return nil }
        return uuid.uuidString.lowercased()
    }

    private func validated(_ raw: String) -> String? {
        try? RequestValidation.noteID(raw)
    }

    @Test(arguments: [
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a",
        "8C4E0D5E-6B7A-4B8E-9A0B-2F1E3D4C5B6A",
        "8c4E0d5E-6b7A-4b8E-9a0B-2f1E3d4C5b6A",
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "8c4e0d5e6b7a-4b8e-9a0b-2f1e3d4c5b6a-",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a0",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6g",
        "8c4e0d5e-6b7a-4b8e-9a0b02f1e3d4c5b6a",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b-a",
        "{8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b}",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6\u{301}",
        "8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5bé",
        "８c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6",
        "",
        "not-a-uuid",
    ])
    func givesWhatFoundationGives(raw: String) {
        #expect(validated(raw) == throughFoundation(raw))
    }

    @Test func everyByteAtEveryPlaceIsJudgedAsFoundationJudgesIt() {
        let base = Array("8c4e0d5e-6b7a-4b8e-9a0b-2f1e3d4c5b6a".utf8)
        var checked = 0
        for place in base.indices {
            for byte in UInt8(0x20)..<UInt8(0x7F) {
                var bytes = base
                bytes[place] = byte
                let raw = String(decoding: bytes, as: UTF8.self)
                #expect(validated(raw) == throughFoundation(raw), "byte \(byte) at \(place)")
                checked += 1
            }
        }
        #expect(checked == 36 * 95)
    }

    @Test func randomIDsOfEitherCaseComeBackLowercase() {
        for _ in 0..<500 {
            let id = UUID().uuidString
            let mixed = String(id.map { Bool.random() ? Character($0.lowercased()) : $0 })
            #expect(validated(mixed) == id.lowercased())
            #expect(UUIDText.lowercased(mixed) == id.lowercased())
        }
    }
}
