import Foundation
import QuireTrips
import Testing

/// Trip and item ids, made on the device: version 7 UUIDs, in the order they were made, as a
/// note's are; ids of earlier releases (version 4) still read.
@Suite struct DeviceMadeIDTests {
    @Test func newTripAndItemIdsAreVersionSevenMadeNow() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let texts = [TripID().description, ItemID().description]
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        for text in texts {
            let characters = Array(text)
            #expect(characters[14] == "7")
            let made = try #require(UInt64(String(characters[0..<8] + characters[9..<13]), radix: 16))
            #expect(made >= before && made <= after)
        }
    }

    @Test func itemsMadeLaterSortLater() {
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let ids = (0..<500).map { ItemID(madeAt: start.addingTimeInterval((Double($0) * 2 + 0.5) / 1_000)) }
        #expect(ids == ids.sorted())
    }

    @Test func anIdOfAnEarlierReleaseStillReads() throws {
        let text = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        #expect(try #require(TripID(text.uppercased())).description == text)
    }
}
