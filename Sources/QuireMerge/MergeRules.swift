/// The rules that differ between merging lines and merging word tokens.
struct MergeRules {
    /// True when symbol `left` directly followed by symbol `right` would fuse into something
    /// neither side wrote: an open last line followed by another line, or two words.
    let glues: (_ left: Int, _ right: Int) -> Bool
    /// True when an insertion right next to the other side's deletion counts as editing what
    /// was deleted (for word tokens: "(" typed before a word the other side deleted).
    let insertionBesideDeletionClashes: Bool
    /// Whether two different insertions at one point, given their first symbols, are both kept.
    /// Always for lines (two people adding items to a list). For words only when both start a new
    /// line (appending lines after a last line without a line break): "milk" → "oat milk" against
    /// "whole milk" is two answers to one question, and "oat whole milk" a phrase nobody wrote.
    var keepsBothInsertions: (_ localFirst: Int, _ serverFirst: Int) -> Bool = { _, _ in true }
    /// For word tokens, true for a line break: a change that adds one, directly followed by the
    /// other side's change, is settled together with it (at the word level, a clash). Text typed
    /// after "to" by one side, where the other replaced "to" and went on into a new paragraph,
    /// belongs as much to the old line as to the new paragraph: nobody can tell which.
    var breaksLine: ((Int) -> Bool)?
    /// Which symbols may anchor a diff (see `AnchoredDiff`), indexed by symbol; all when empty.
    var canAnchor: [Bool] = []
    /// True when every change must sit where both diffs are sure of the place (the symbols around
    /// it that a side kept, and those it replaces that a side kept, pinned in that side's diff).
    /// Otherwise the change goes to the finer merge (for word tokens, none: a clash). A word typed
    /// next to "now" must not follow "now" into another paragraph because the other side's diff
    /// paired it with a "now" there.
    var placesOnlyWhereSure = false
    /// True when a side's symbols `sideRange`, which replace the base's `base`, are those symbols
    /// edited, not rewritten; checked for every such hunk in a region given to the finer merge.
    /// A paragraph deleted and another written where it was is no edit of it: the other side's
    /// edits of the old one have no place in the new one.
    var isEdit: ((_ side: MergeSource, _ base: Range<Int>, _ sideRange: Range<Int>) -> Bool)?
    /// True when lines of a side's range were moved from, or to, the base outside the region:
    /// they share a word found once around them in each text with a line on the other side of
    /// the region's edge, and are alike (a paragraph moved and edited). Checked for every region
    /// given to the finer merge.
    var movesAcross: ((_ side: MergeSource, _ base: Range<Int>, _ sideRange: Range<Int>) -> Bool)?
    /// Changed symbols of the base and of one side that are still one unit edited, for a stretch
    /// of the diff with nothing unique to anchor on (see `AnchoredDiff.Correspondence`).
    var correspondence: ((_ side: MergeSource, _ base: Range<Int>, _ sideRange: Range<Int>) -> [(x: Int, y: Int)])?
}
