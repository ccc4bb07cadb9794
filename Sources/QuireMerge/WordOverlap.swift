/// Whether one piece of text is another edited, not rewritten: the words they share, each word
/// weighed by how rare it is in the note around them, against the words of the lighter piece.
///
/// A word found n times around the lines compared, in the base or the side, whichever has it more
/// often (`Neighbourhood`), weighs
/// 1 / (1 + ⌊log₂ n⌋): "Alpha", found once, weighs 1, "is", found in every paragraph, less, so two
/// paragraphs that share only "is" and "here" are not one paragraph edited, while "Alpha one is
/// here." and "Alpha one is here now." are. Only less: a line of LaTeX made of `\mathit` and
/// `\mathsf`, found hundreds of times, whose one rarer word was renamed, is still that line
/// edited.
struct WordOverlap {
    private let weight: [Int: Double]

    /// Weights from each word's count in the base and in the side (`Neighbourhood`); a word
    /// counted in neither weighs nothing.
    init(baseCounts: [Int: Int], sideCounts: [Int: Int]) {
        var weight: [Int: Double] = [:]
        for (symbol, count) in baseCounts.merging(sideCounts, uniquingKeysWith: max) {
            weight[symbol] = 1 / Double(Int.bitWidth - count.leadingZeroBitCount)
        }
        self.weight = weight
    }

    /// True when the words the two pieces share weigh more than half of the lighter piece: the
    /// one is the other edited (words typed, deleted or retyped, not most of it rewritten). A piece
    /// of fewer than three words is alike to any: with one or two words there is no telling a
    /// rewrite from an edit ("resume" retyped "résumé", "one two" made "ONE two"). A piece
    /// without words is alike only to another without words.
    func alike(_ base: ArraySlice<Int>, _ side: ArraySlice<Int>) -> Bool {
        var kept: [Int: Int] = [:]
        var baseTotal = 0.0
        var baseWords = 0
        for symbol in base {
            guard let weight = weight[symbol] else { continue }
            kept[symbol, default: 0] += 1
            baseTotal += weight
            baseWords += 1
        }
        var sideTotal = 0.0
        var sideWords = 0
        var shared = 0.0
        for symbol in side {
            guard let weight = weight[symbol] else { continue }
            sideTotal += weight
            sideWords += 1
            if let count = kept[symbol], count > 0 {
                kept[symbol] = count - 1
                shared += weight
            }
        }
        guard baseWords > 0 && sideWords > 0 else { return baseWords == sideWords }
        guard min(baseWords, sideWords) >= 3 else { return true }
        return shared * 2 > min(baseTotal, sideTotal)
    }
}
