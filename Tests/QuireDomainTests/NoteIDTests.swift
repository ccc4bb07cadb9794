import Foundation
import QuireDomain
import Testing

/// A note's id: made on the device, a version 7 UUID whose text sorts in the order the notes were
/// made, so the server writes each new note at the end of its notes' key (docs/benchmarks.md,
/// "Part 6, eleventh pass"); ids of earlier releases (random, version 4) still read.
@Suite struct NoteIDTests {
    @Test func aNewIdIsVersionSevenAndCarriesTheMillisecondItWasMade() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let text = NoteID().description
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        let characters = Array(text)
        #expect(characters[14] == "7")
        #expect("89ab".contains(characters[19]))
        let made = try #require(UInt64(String(characters[0..<8] + characters[9..<13]), radix: 16))
        #expect(made >= before && made <= after)
    }

    @Test func idsMadeLaterSortLater() {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        // Two milliseconds apart, each half a millisecond in (clear of rounding).
        let ids = (0..<1_000).map { NoteID(madeAt: start.addingTimeInterval((Double($0) * 2 + 0.5) / 1_000)) }
        #expect(ids == ids.sorted())
        #expect(ids.map(\.description) == ids.map(\.description).sorted())
        // Ids of one millisecond differ in their random bits.
        #expect(Set((0..<1_000).map { _ in NoteID(madeAt: start) }).count == 1_000)
    }

    @Test func anIdOfAnEarlierReleaseStillReads() throws {
        let text = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        let id = try #require(NoteID(text.uppercased()))
        #expect(id.description == text)
        let decoded = try JSONDecoder().decode(NoteID.self, from: Data("\"\(text)\"".utf8))
        #expect(decoded == id)
    }
}
