/// A line diff for showing people two versions of a note: longest common subsequence, printed as
/// one unified hunk (` ` kept, `-` only in the first, `+` only in the second).
///
/// Quadratic in the number of lines, which is fine for notes shown in a terminal; the merge itself
/// uses QuireMerge's linear-space diff.
enum UnifiedDiff {
    static func lines(from old: [String], to new: [String]) -> [String] {
        let n = old.count
        let m = new.count
        // lengths[i][j]: LCS length of old[i...] and new[j...].
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] =
                    old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var output = ["@@ -1,\(n) +1,\(m) @@"]
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                output.append(" " + old[i])
                i += 1
                j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                output.append("-" + old[i])
                i += 1
            } else {
                output.append("+" + new[j])
                j += 1
            }
        }
        return output
    }
}
