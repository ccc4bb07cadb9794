/// Three-way merge of texts: pure, deterministic, no I/O.
///
/// Two devices start from one note, the base. The phone changes line 3, the laptop changes
/// line 4 and adds a line at the end: the merge holds all three edits. Had both changed line 3,
/// the line is retried word by word: the phone fixed "teh" at its start and the laptop added
/// "today" at its end, so both edits fit. Had both changed the same word differently, or had
/// one deleted the line the other edited, the merge is a clash, and the caller keeps both texts.
///
/// The rules, line by line against the base (diff3):
/// - edits to different lines combine, even when the lines are adjacent;
/// - the same change made on both sides counts once;
/// - both sides inserting different lines at one place keep both, the server's lines first,
///   then the local ones; an insertion that begins or ends with all of the other one is kept alone;
/// - lines both sides changed differently are retried by word tokens with the same rules, and
///   clash only if the word-level changes overlap too;
/// - a deletion against an edit of the same lines clashes; a deletion of lines nobody else
///   touched deletes them; two deletions delete both ranges;
/// - lines pair by what they hold, not by where blank lines fall: a line found once on each side,
///   or a line and its edited self. One device adds, removes or moves paragraphs, the other edits
///   one: the edit lands in that paragraph, or the merge clashes (a paragraph moved or rewritten
///   where the other edited it, text typed where either of two paragraphs could own it);
/// - an empty base is no exception: two texts written into an empty note are two insertions at
///   one point, kept both (server's first), unless joining them would fuse two lines or words
///   (neither ends with a line break), which is a clash.
///
/// A merge never invents text, never repeats a line only one side had, keeps each side's lines in
/// that side's order, and copies bytes exactly: "\r\n" endings, a last line without a line break,
/// emoji and combining sequences (never split: words are cut on `Character` boundaries).
public enum ThreeWayMerge {
    /// Merges `local` and `server`, both edited from `base`.
    ///
    /// Returns `.clean` with a text holding both sides' changes, or `.clash` when they overlap.
    /// When one side is unchanged the other side is returned exactly. Same input, same answer.
    public static func merge(base: String, local: String, server: String) -> MergeResult {
        if local.utf8.elementsEqual(server.utf8) { return .clean(local) }
        if local.utf8.elementsEqual(base.utf8) { return .clean(server) }
        if server.utf8.elementsEqual(base.utf8) { return .clean(local) }
        guard let merged = mergeClosingLastLines(Array(base.utf8), Array(local.utf8), Array(server.utf8))
        else { return .clash }
        return .clean(String(decoding: merged, as: UTF8.self))
    }

    /// Merges a base whose last line has no line break as if it had one (and each side likewise),
    /// and ends the merged text the way the sides say (a side that added or removed the final line
    /// break wins over one that kept the base's). A closed base keeps the open-line rules of the
    /// sides (an open line added at the end goes last, two clash).
    ///
    /// An open last line is the one place where a line and the lines after it are one unit; a side
    /// that typed on after it and another that edited it then met in the word-level retry, whose
    /// words could land in each other's lines: "L0089 phone" and "L0095 laptop" came out as
    /// "L0089 laptop" and "L0095 phone" in the live chaos run. An empty side stays empty.
    static func mergeClosingLastLines(_ base: [UInt8], _ local: [UInt8], _ server: [UInt8]) -> [UInt8]? {
        let newline = UInt8(ascii: "\n")
        func open(_ text: [UInt8]) -> Bool { !text.isEmpty && text.last != newline }
        guard open(base) else {
            return TextMerge.lines(base: base, local: local, server: server)
        }
        func closed(_ text: [UInt8]) -> [UInt8] { open(text) ? text + [newline] : text }
        guard var merged = TextMerge.lines(base: closed(base), local: closed(local), server: closed(server))
        else { return nil }
        let ends = { (text: [UInt8]) in text.last == newline }
        let endsWithNewline = ends(local) != ends(base) ? ends(local) : ends(server)
        if !endsWithNewline, merged.last == newline { merged.removeLast() }
        return merged
    }
}
