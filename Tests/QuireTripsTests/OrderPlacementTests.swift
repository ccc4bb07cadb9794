import QuireTrips
import Testing

@Suite struct OrderPlacementTests {
    private func day(_ keys: [String]) -> [ItineraryEntry] {
        keys.enumerated().map { ItineraryEntry(id: "item-\($0.offset)", orderKey: $0.element) }
    }

    private func applying(_ writes: [OrderKeyWrite], to items: [ItineraryEntry], inserting id: String)
        -> [ItineraryEntry]
    {
        var items = items
        if !items.contains(where: { $0.id == id }) { items.append(ItineraryEntry(id: id, orderKey: "")) }
        for write in writes {
            if let index = items.firstIndex(where: { $0.id == write.itemID }) { items[index].orderKey = write.key }
        }
        return items.sorted { a, b in a.orderKey != b.orderKey ? OrderKey.precedes(a.orderKey, b.orderKey) : a.id < b.id
        }
    }

    @Test(arguments: [
        (OrderPosition.first, ["new", "item-0", "item-1", "item-2"]),
        (.last, ["item-0", "item-1", "item-2", "new"]),
        (.after("item-0"), ["item-0", "new", "item-1", "item-2"]),
        (.before("item-2"), ["item-0", "item-1", "new", "item-2"]),
        (.after("item-2"), ["item-0", "item-1", "item-2", "new"]),
    ])
    func anInsertWritesOneFieldOfOneItem(position: OrderPosition, expected: [String]) throws {
        let items = day(["a0", "a1", "a2"])
        let writes = try OrderPlacement.place("new", at: position, among: items)
        #expect(writes.count == 1)
        #expect(writes.first?.itemID == "new")
        #expect(applying(writes, to: items, inserting: "new").map(\.id) == expected)
    }

    @Test func aMoveWritesOnlyTheMovedItemsKey() throws {
        let items = day(["a0", "a1", "a2", "a3"])
        let writes = try OrderPlacement.place("item-3", at: .after("item-0"), among: items)
        #expect(writes == [OrderKeyWrite(itemID: "item-3", key: "a0V")])
        #expect(applying(writes, to: items, inserting: "item-3").map(\.id) == ["item-0", "item-3", "item-1", "item-2"])
    }

    /// Two devices inserted at one spot offline and made the same key: there is no key between
    /// them, so the day is rebalanced, in display order, as ordinary field writes.
    @Test func equalKeysFromConcurrentInsertsAreRebalanced() throws {
        let items = [
            ItineraryEntry(id: "a", orderKey: "a0"), ItineraryEntry(id: "b", orderKey: "a0V"),
            ItineraryEntry(id: "c", orderKey: "a0V"), ItineraryEntry(id: "d", orderKey: "a1"),
        ]
        let writes = try OrderPlacement.place("new", at: .after("b"), among: items)
        #expect(writes.count > 1)
        #expect(writes.allSatisfy { $0.key.utf8.count <= 3 })
        #expect(applying(writes, to: items, inserting: "new").map(\.id) == ["a", "b", "new", "c", "d"])
        #expect(try OrderPlacement.place("new", at: .after("b"), among: items) == writes, "deterministic")
    }

    @Test func aMalformedNeighbourKeyIsRebalancedNotTrapped() throws {
        let items = [ItineraryEntry(id: "a", orderKey: "a0"), ItineraryEntry(id: "b", orderKey: "??")]
        let writes = try OrderPlacement.place("new", at: .before("b"), among: items)
        #expect(applying(writes, to: items, inserting: "new").map(\.id) == ["a", "new", "b"])
        #expect(writes.allSatisfy { OrderKey.isValid($0.key) })
    }

    @Test func aKeyThatWouldGrowPastTheLimitRebalancesTheDay() throws {
        var items = day(["a0", "a1"])
        var longest = 0
        var rebalances = 0
        for index in 0..<500 {
            let id = "new-\(index)"
            let writes = try OrderPlacement.place(id, at: .after("item-0"), among: items)
            if writes.count > 1 { rebalances += 1 }
            items = applying(writes, to: items, inserting: id)
            longest = max(longest, items.map(\.orderKey.utf8.count).max() ?? 0)
            try #require(items.first?.id == "item-0" && items[1].id == id)
        }
        #expect(longest <= OrderPlacement.rebalanceLength)
        #expect(rebalances >= 1)
    }

    @Test func tombstonesAreNotNeighbours() throws {
        let items = [
            ItineraryEntry(id: "a", orderKey: "a0"), ItineraryEntry(id: "gone", orderKey: "a1", isDeleted: true),
            ItineraryEntry(id: "b", orderKey: "a1"),
        ]
        #expect(
            try OrderPlacement.place("new", at: .after("a"), among: items) == [OrderKeyWrite(itemID: "new", key: "a0V")]
        )
        #expect(throws: OrderKeyError.unknownAnchor) {
            try OrderPlacement.place("new", at: .after("gone"), among: items)
        }
    }

    @Test func placingAgainstAnUnknownItemOrItselfIsRefused() {
        let items = day(["a0", "a1"])
        #expect(throws: OrderKeyError.unknownAnchor) {
            try OrderPlacement.place("new", at: .before("nope"), among: items)
        }
        #expect(throws: OrderKeyError.unknownAnchor) {
            try OrderPlacement.place("item-0", at: .after("item-0"), among: items)
        }
    }

    /// Random moves and inserts on one day: after each, the key order is the order asked for.
    @Test(arguments: [5, 6, 7] as [UInt64])
    func randomMovesKeepTheKeyOrderTheRequestedOrder(seed: UInt64) throws {
        var random = Xorshift(seed: seed)
        var items = day(try OrderKey.keys(count: 10, between: nil, and: nil))
        for step in 0..<2_000 {
            let inserting = items.count < 40 && Bool.random(using: &random)
            let id = inserting ? "new-\(step)" : items.randomElement(using: &random)!.id
            let others = items.filter { $0.id != id }
            let position: OrderPosition
            var expected = others.map(\.id)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                position = .first
                expected.insert(id, at: 0)
            case 1:
                position = .last
                expected.append(id)
            case 2:
                let anchor = Int.random(in: 0..<others.count, using: &random)
                position = .after(others[anchor].id)
                expected.insert(id, at: anchor + 1)
            default:
                let anchor = Int.random(in: 0..<others.count, using: &random)
                position = .before(others[anchor].id)
                expected.insert(id, at: anchor)
            }
            let writes = try OrderPlacement.place(id, at: position, among: items)
            items = applying(writes, to: items, inserting: id)
            try #require(items.map(\.id) == expected, "seed \(seed), step \(step)")
        }
    }
}
