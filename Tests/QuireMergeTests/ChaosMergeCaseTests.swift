import QuireMerge
import Testing

/// Merges like the live chaos test's: lines "L<n> <device>", each side replaces or appends lines.
/// A clean merge must never hold a line that neither side nor the base had.
struct ChaosMergeCaseTests {
    @Test func aCleanMergeNeverInventsALine() {
        var random = SplitMix64(seed: 7)
        let devices = ["phone", "laptop", "tablet"]
        var counter = 0
        func line() -> String {
            counter += 1
            return "L\(1000 + counter) \(devices[Int(random.next() % 3)])"
        }
        func edit(_ lines: [String]) -> [String] {
            var lines = lines
            for _ in 0..<(1 + Int(random.next() % 2)) {
                if !lines.isEmpty, random.next() % 2 == 0 {
                    lines[Int(random.next() % UInt64(lines.count))] = line()
                } else {
                    lines.append(line())
                }
            }
            return lines
        }
        var failures: [String] = []
        for _ in 0..<6_000 {
            let base = (0..<(1 + Int(random.next() % 6))).map { _ in line() }
            let mine = edit(base)
            let theirs = edit(base)
            let b = base.joined(separator: "\n")
            let m = mine.joined(separator: "\n")
            let t = theirs.joined(separator: "\n")
            guard case .clean(let merged) = ThreeWayMerge.merge(base: b, local: m, server: t) else { continue }
            let known = Set(base + mine + theirs)
            let bad = merged.split(separator: "\n").map(String.init).filter { !known.contains($0) }
            if !bad.isEmpty, failures.count < 3 {
                failures.append("base \(base) mine \(mine) theirs \(theirs) -> \(merged.split(separator: "\n"))")
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
