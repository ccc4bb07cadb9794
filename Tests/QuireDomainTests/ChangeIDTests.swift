import Foundation
import QuireDomain
import Testing

/// A change's id: a version 7 UUID whose text sorts in the order the changes were made.
@Suite struct ChangeIDTests {
    @Test func aNewIdIsVersionSevenWithItsMillisecondFirst() throws {
        let made = Date(timeIntervalSince1970: 1_796_000_000.5)
        let id = ChangeID(madeAt: made)
        let text = id.description
        // 48 bits of Unix milliseconds, then the version and RFC 9562's variant.
        let milliseconds = String(1_796_000_000_500, radix: 16)
        let padded = String(repeating: "0", count: 12 - milliseconds.count) + milliseconds
        #expect(text.prefix(13) == padded.prefix(8) + "-" + padded.suffix(4))
        #expect(Array(text)[14] == "7")
        #expect("89ab".contains(Array(text)[19]))
        #expect(ChangeID(text) == id)
    }

    @Test func idsMadeLaterSortLaterAsText() {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        // Two milliseconds apart, each half a millisecond in (clear of rounding).
        let ids = (0..<1_000).map { ChangeID(madeAt: start.addingTimeInterval((Double($0) * 2 + 0.5) / 1_000)) }
        #expect(ids.map(\.description) == ids.map(\.description).sorted())
        // Ids of the same millisecond differ in their random bits.
        let sameMoment = (0..<1_000).map { _ in ChangeID(madeAt: start).description }
        #expect(Set(sameMoment).count == 1_000)
    }
}
