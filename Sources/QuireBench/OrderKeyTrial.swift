import Foundation
import QuireTestSupport
import QuireTrips

/// One order-key function (`between(a, b)`, nil an open end) put through issue 14's cases, the
/// same way for `OrderKey` and the seed's `keyBetween`: appends, prepends, inserts at one spot
/// (as `OrderKeyTests` does them), random inserts with every key checked against its neighbours,
/// and the time per appended key.
struct OrderKeyTrial {
    typealias Between = (String?, String?) throws -> String

    /// The lengths, in characters (bytes: keys are ASCII), of the keys a run made.
    struct Lengths {
        var longest: Int
        var last: Int
        var lastKey: String
        var mean: Double
    }

    /// Random inserts: the lengths, and every insert whose key did not land strictly between its
    /// neighbours (or that threw), described.
    struct RandomInserts {
        var inserts: Int
        var lengths: Lengths
        var misplaced: [String]
    }

    let between: Between

    /// Each key after the last one (an empty list first).
    func appends(_ count: Int) throws -> Lengths {
        var keys: [String] = []
        for _ in 0..<count { keys.append(try between(keys.last, nil)) }
        return Self.lengths(keys, last: keys.last ?? "")
    }

    /// Each key before the first one.
    func prepends(_ count: Int) throws -> Lengths {
        var keys: [String] = []
        for _ in 0..<count { keys.insert(try between(nil, keys.first), at: 0) }
        return Self.lengths(keys, last: keys.first ?? "")
    }

    /// `count` inserts at one spot between two fixed items (the first key and the one after
    /// it). `rightBeforeTheFixedItem`: each new key goes between the previous new one and the
    /// fixed right neighbour; otherwise each goes right after the fixed left neighbour, before
    /// the previous new one. `OrderKeyTests` checks both ways.
    func insertsAtOneSpot(_ count: Int, rightBeforeTheFixedItem: Bool) throws -> Lengths {
        let left = try between(nil, nil)
        let right = try between(left, nil)
        var keys = [left, right]
        var newest = right
        for _ in 0..<count {
            let spot = rightBeforeTheFixedItem ? keys.count - 1 : 1
            newest = try between(keys[spot - 1], keys[spot])
            keys.insert(newest, at: spot)
        }
        return Self.lengths(Array(keys.dropFirst().dropLast()), last: newest)
    }

    /// `count` inserts at uniformly random places (seeded), each checked to sort strictly
    /// between the keys either side of it, and the whole list checked sorted at the end.
    func randomInserts(_ count: Int, seed: UInt64) -> RandomInserts {
        var random = SeededRandom(seed: seed)
        var keys: [String] = []
        var misplaced: [String] = []
        for index in 0..<count {
            let spot = Int.random(in: 0...keys.count, using: &random)
            let lower = spot > 0 ? keys[spot - 1] : nil
            let upper = spot < keys.count ? keys[spot] : nil
            let key: String
            do {
                key = try between(lower, upper)
            } catch {
                misplaced.append("insert \(index) between \(lower ?? "nil") and \(upper ?? "nil") threw \(error)")
                continue
            }
            let above = lower.map { OrderKey.precedes($0, key) } ?? true
            let below = upper.map { OrderKey.precedes(key, $0) } ?? true
            if !above || !below {
                misplaced.append(
                    "insert \(index): \(key) is not strictly between \(lower ?? "nil") and \(upper ?? "nil")")
            }
            keys.insert(key, at: spot)
        }
        if misplaced.isEmpty, !zip(keys, keys.dropFirst()).allSatisfy({ OrderKey.precedes($0, $1) }) {
            misplaced.append("the final list of \(keys.count) keys is not strictly ascending")
        }
        return RandomInserts(inserts: count, lengths: Self.lengths(keys, last: keys.last ?? ""), misplaced: misplaced)
    }

    /// The time per key of `count` appends from an empty list, timed in batches of `batch`
    /// keys (so the clock's own cost is spread over a batch): one sample per batch, the batch's
    /// time divided by its size.
    func appendTimes(_ count: Int, batch: Int) throws -> Samples {
        let clock = ContinuousClock()
        var samples = Samples()
        var last: String?
        var made = 0
        while made < count {
            let size = min(batch, count - made)
            let start = clock.now
            for _ in 0..<size { last = try between(last, nil) }
            samples.append((clock.now - start) / size)
            made += size
        }
        return samples
    }

    private static func lengths(_ keys: [String], last: String) -> Lengths {
        let counts = keys.map(\.utf8.count)
        return Lengths(
            longest: counts.max() ?? 0, last: last.utf8.count, lastKey: last,
            mean: counts.isEmpty ? 0 : Double(counts.reduce(0, +)) / Double(counts.count))
    }
}
