@testable import QuireMerge

/// Fuzz target `merge`: `ThreeWayMerge.merge` on any three texts (base, local, server: the input
/// cut at zero bytes), checked against what its documentation promises:
/// - the same input gives the same answer, and swapping the sides does not change whether it clashes;
/// - one side unchanged gives the other side exactly; a side merged with itself is itself;
/// - a clean merge never invents a word: each of its words (the merge's own word tokens) was in
///   the base or one of the sides;
/// - a clean merge loses nothing typed: a word a side has more of than the base is there at least
///   that many more times;
///
/// A first version also required that a clean merge never repeat a line only one side had. It
/// found the open-line fusion fixed in SequenceMerge (MergeCaseTests), and then inputs where a
/// line both sides edited, combined word by word, came out equal to a line one side had
/// elsewhere: sound merges, so that check is not kept.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMerge(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let fields = FuzzInput.fields(FuzzInput.bytes(data, size), count: 3)
    let (base, local, server) = (FuzzInput.text(fields[0]), FuzzInput.text(fields[1]), FuzzInput.text(fields[2]))
    let result = ThreeWayMerge.merge(base: base, local: local, server: server)
    FuzzInput.require(result == ThreeWayMerge.merge(base: base, local: local, server: server), "not deterministic")
    let swapped = ThreeWayMerge.merge(base: base, local: server, server: local)
    FuzzInput.require((result == .clash) == (swapped == .clash), "clashes one way round only")
    FuzzInput.require(ThreeWayMerge.merge(base: base, local: local, server: base) == .clean(local), "server unchanged")
    FuzzInput.require(ThreeWayMerge.merge(base: base, local: base, server: server) == .clean(server), "local unchanged")
    guard case .clean(let merged) = result else { return 0 }

    let words = [base, local, server, merged].map(MergeFuzzText.wordCounts)
    let (baseWords, localWords, serverWords, mergedWords) = (words[0], words[1], words[2], words[3])
    for word in mergedWords.keys {
        FuzzInput.require(
            baseWords[word] != nil || localWords[word] != nil || serverWords[word] != nil,
            "the merge invented the word \(word.debugDescription)")
    }
    for side in [localWords, serverWords] {
        for (word, count) in side {
            let added = count - (baseWords[word] ?? 0)
            FuzzInput.require(
                added <= 0 || (mergedWords[word] ?? 0) >= added, "the merge lost the word \(word.debugDescription)")
        }
    }
    return 0
}

/// Counting a text's words, the merge's way.
enum MergeFuzzText {
    /// The word tokens (runs of letters, digits and "_") the merge itself cuts, with their counts.
    static func wordCounts(_ text: String) -> [String: Int] {
        let bytes = Array(text.utf8)
        var counts: [String: Int] = [:]
        TextUnits.forEachWordToken(in: bytes[...]) { range, isWord in
            if isWord { counts[String(decoding: bytes[range], as: UTF8.self), default: 0] += 1 }
        }
        return counts
    }
}
