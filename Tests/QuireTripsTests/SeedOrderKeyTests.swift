import QuireTrips
import Testing

/// The seed's `keyBetween`, ported as the baseline: it reproduces the measurements.
@Suite struct SeedOrderKeyTests {
    @Test func tenThousandAppendsReachTwoThousandCharacters() throws {
        var last: String? = nil
        for _ in 0..<10_000 { last = try SeedOrderKey.between(last, nil) }
        #expect(last?.utf8.count == 2_000)
    }

    @Test func tenThousandPrependsReach1667Characters() throws {
        var first: String? = nil
        for _ in 0..<10_000 { first = try SeedOrderKey.between(nil, first) }
        #expect(first?.utf8.count == 1_667)
    }

    @Test(
        arguments: [
            (nil, nil, "V"), ("V", nil, "l"), (nil, "V", "G"), ("V", "W", "VV"), ("1", "2", "1V"), (nil, "1", "0V"),
        ] as [(String?, String?, String)])
    func isTheSeedsFunction(a: String?, b: String?, expected: String) throws {
        #expect(try SeedOrderKey.between(a, b) == expected)
    }

    @Test(arguments: [11, 12] as [UInt64])
    func itsRandomInsertsStillLandBetweenTheirNeighbours(seed: UInt64) throws {
        var random = Xorshift(seed: seed)
        var keys: [String] = []
        for _ in 0..<2_000 {
            let spot = Int.random(in: 0...keys.count, using: &random)
            keys.insert(
                try SeedOrderKey.between(spot > 0 ? keys[spot - 1] : nil, spot < keys.count ? keys[spot] : nil),
                at: spot)
        }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { OrderKey.precedes($0, $1) })
    }

    @Test func refusesNeighboursOutOfOrder() {
        #expect(throws: OrderKeyError.notAscending) { try SeedOrderKey.between("W", "V") }
    }
}
