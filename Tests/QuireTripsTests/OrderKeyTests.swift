import QuireTrips
import Testing

@Suite struct OrderKeyTests {
    // MARK: - The targets, as properties

    @Test func tenThousandAppendsStayAtSixCharactersOrFewer() throws {
        var keys = [try OrderKey.between(nil, nil)]
        for _ in 1..<10_000 { keys.append(try OrderKey.between(keys.last, nil)) }
        #expect(keys.map(\.utf8.count).max() ?? 99 <= 6)
        #expect(isStrictlyAscending(keys))
    }

    @Test func tenThousandPrependsStayAtSixCharactersOrFewer() throws {
        var keys = [try OrderKey.between(nil, nil)]
        for _ in 1..<10_000 { keys.insert(try OrderKey.between(nil, keys.first), at: 0) }
        #expect(keys.map(\.utf8.count).max() ?? 99 <= 6)
        #expect(isStrictlyAscending(keys))
    }

    /// Both ways of inserting at one spot: each new item right after a fixed item (pushing the
    /// earlier newcomers down), and each right before a fixed item (after the last newcomer).
    @Test(arguments: [true, false])
    func aThousandInsertsAtOneSpotStayUnder200Characters(rightAfterTheFixedItem: Bool) throws {
        let before = "a0"
        let after = try OrderKey.between(before, nil)
        var keys = [before, after]
        for _ in 0..<1_000 {
            let spot = rightAfterTheFixedItem ? 1 : keys.count - 1
            keys.insert(try OrderKey.between(keys[spot - 1], keys[spot]), at: spot)
        }
        let longest = keys.map(\.utf8.count).max() ?? 999
        #expect(longest < 200, "longest key \(longest)")
        #expect(isStrictlyAscending(keys))
    }

    @Test(arguments: [1, 2, 3, 42, 2027] as [UInt64])
    func randomInsertsLandStrictlyBetweenTheirNeighbours(seed: UInt64) throws {
        var random = Xorshift(seed: seed)
        var keys: [String] = []
        for _ in 0..<10_000 {
            let spot = Int.random(in: 0...keys.count, using: &random)
            let lower = spot > 0 ? keys[spot - 1] : nil
            let upper = spot < keys.count ? keys[spot] : nil
            let key = try OrderKey.between(lower, upper)
            if let lower { try #require(OrderKey.precedes(lower, key), "\(lower) < \(key), seed \(seed)") }
            if let upper { try #require(OrderKey.precedes(key, upper), "\(key) < \(upper), seed \(seed)") }
            try #require(OrderKey.isValid(key), "\(key), seed \(seed)")
            keys.insert(key, at: spot)
        }
        #expect(keys == keys.sorted(by: OrderKey.precedes))
    }

    @Test(arguments: [7, 8, 9] as [UInt64])
    func keysNeverEndInTheLowestDigitOfTheFractionalPart(seed: UInt64) throws {
        var random = Xorshift(seed: seed)
        var keys = ["a0"]
        for _ in 0..<3_000 {
            let spot = Int.random(in: 0...keys.count, using: &random)
            let key = try OrderKey.between(spot > 0 ? keys[spot - 1] : nil, spot < keys.count ? keys[spot] : nil)
            keys.insert(key, at: spot)
        }
        // A key is its integer part alone or ends in a non-zero fraction digit; the integer
        // part's length is set by its head letter.
        for key in keys {
            let bytes = Array(key.utf8)
            let head = bytes[0]
            let integerLength =
                head >= UInt8(ascii: "a") ? Int(head - UInt8(ascii: "a")) + 2 : Int(UInt8(ascii: "Z") - head) + 2
            #expect(bytes.count == integerLength || bytes.last != UInt8(ascii: "0"), "\(key)")
        }
    }

    // MARK: - The reference implementation's answers

    /// rocicorp/fractional-indexing's test vectors (src/test.js), base 62, but one: against an
    /// open end the middle digit rounds down, so ("a0V", "a1") gives "a0k" where the reference
    /// gives "a0l" (see `OrderKey.midpoint`). Both are keys between; only the choice differs.
    @Test(
        arguments: [
            (nil, nil, "a0"), (nil, "a0", "Zz"), (nil, "Zz", "Zy"), ("a0", nil, "a1"), ("a1", nil, "a2"),
            ("a0", "a1", "a0V"), ("a1", "a2", "a1V"), ("a0V", "a1", "a0k"), ("Zz", "a0", "ZzV"), ("Zz", "a1", "a0"),
            (nil, "Y00", "Xzzz"), ("bzz", nil, "c000"), ("a0", "a0V", "a0G"), ("a0", "a0G", "a08"),
            ("b125", "b129", "b127"), ("a0", "a1V", "a1"), ("Zz", "a01", "a0"), (nil, "a0V", "a0"),
            (nil, "b999", "b99"),
            (nil, "A000000000000000000000000001", "A000000000000000000000000000V"),
            ("zzzzzzzzzzzzzzzzzzzzzzzzzzy", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzz"),
            ("zzzzzzzzzzzzzzzzzzzzzzzzzzz", nil, "zzzzzzzzzzzzzzzzzzzzzzzzzzzV"),
        ] as [(String?, String?, String)])
    func matchesTheReferenceImplementation(a: String?, b: String?, expected: String) throws {
        #expect(try OrderKey.between(a, b) == expected)
    }

    @Test func spreadsKeysLikeTheReferenceImplementation() throws {
        #expect(try OrderKey.keys(count: 5, between: nil, and: nil) == ["a0", "a1", "a2", "a3", "a4"])
        #expect(try OrderKey.keys(count: 2, between: "a1", and: nil) == ["a2", "a3"])
        #expect(try OrderKey.keys(count: 2, between: nil, and: "a0") == ["Zy", "Zz"])
        #expect(try OrderKey.keys(count: 0, between: nil, and: nil) == [])
    }

    @Test(arguments: [(nil, nil), ("a0", nil), (nil, "a0"), ("a0", "a1"), ("Zz", "a0V")] as [(String?, String?)])
    func spreadKeysAscendStrictlyWithinTheirBounds(a: String?, b: String?) throws {
        let keys = try OrderKey.keys(count: 200, between: a, and: b)
        #expect(keys.count == 200)
        #expect(isStrictlyAscending([a].compactMap { $0 } + keys + [b].compactMap { $0 }))
        #expect(keys.allSatisfy(OrderKey.isValid))
        // Evenly spread: no key much longer than the shortest (halving, not one long run).
        let lengths = keys.map(\.utf8.count)
        #expect((lengths.max() ?? 0) - (lengths.min() ?? 0) <= 3, "\(lengths.min() ?? 0)...\(lengths.max() ?? 0)")
    }

    // MARK: - Refusals, never traps

    @Test(arguments: [("a1", "a0"), ("a0", "a0"), ("a0V", "a0")] as [(String, String)])
    func betweenRefusesNeighboursOutOfOrder(a: String, b: String) {
        #expect(throws: OrderKeyError.notAscending) { try OrderKey.between(a, b) }
        #expect(throws: OrderKeyError.notAscending) { try OrderKey.keys(count: 3, between: a, and: b) }
    }

    @Test(arguments: [
        "", "0", "1", "a", "zz", "a00", "a0V0", "A00000000000000000000000000", "a0é", "a0 ", "a-", "ÿ", "a0\u{0}",
    ])
    func malformedKeysFromTheWireAreRefusedWithAReason(_ key: String) {
        #expect(!OrderKey.isValid(key))
        #expect(throws: OrderKeyError.malformedKey) { try OrderKey.validate(key) }
        #expect(throws: OrderKeyError.malformedKey) { try OrderKey.between(key, nil) }
        #expect(throws: OrderKeyError.malformedKey) { try OrderKey.between(nil, key) }
        do {
            try OrderKey.validate(key)
        } catch {
            #expect("\(error)".contains("malformed order key"))
        }
    }

    @Test func aVeryLongKeyFromTheWireIsHandledWithoutRecursion() throws {
        // Its common prefix with "a0" padded by zeros is 200,000 digits long.
        let long = "a0" + String(repeating: "0", count: 200_000) + "1"
        let key = try OrderKey.between("a0", long)
        #expect(OrderKey.precedes("a0", key) && OrderKey.precedes(key, long))
        #expect(!OrderKey.isValid(long + "0"))
    }

    @Test(arguments: ["a0", "Zz", "a0V", "b00", "A000000000000000000000000000V", "zzzzzzzzzzzzzzzzzzzzzzzzzzzV"])
    func keysThisFormatMakesAreValid(_ key: String) {
        #expect(OrderKey.isValid(key))
    }

    private func isStrictlyAscending(_ keys: [String]) -> Bool {
        zip(keys, keys.dropFirst()).allSatisfy { OrderKey.precedes($0, $1) }
    }
}
