import Foundation

/// The merge benchmark's baseline: the length of the longest common subsequence of two texts'
/// lines, by the textbook dynamic programme (O(n·m) time, two rows of memory). A three-way merge
/// must at least diff the base against each side, so two of these are a naive floor for it.
enum LineLCS {
    static func length(_ a: String, _ b: String) -> Int {
        let left = a.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hashValue }
        let right = b.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hashValue }
        guard !left.isEmpty, !right.isEmpty else { return 0 }
        var previous = [Int](repeating: 0, count: right.count + 1)
        var current = previous
        for i in 1...left.count {
            for j in 1...right.count {
                current[j] =
                    left[i - 1] == right[j - 1]
                    ? previous[j - 1] + 1 : max(previous[j], current[j - 1])
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
