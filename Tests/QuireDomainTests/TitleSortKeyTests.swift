import Foundation
import QuireDomain
import Testing

/// The title key sorts as `localizedStandardCompare` does (the order `quire ls --sort title`
/// showed when it sorted in memory): byte order of the keys is that order.
struct TitleSortKeyTests {
    /// Digits, case, accents (composed and not), spaces and punctuation, empty titles, ligatures,
    /// full-width letters, letters that stand for two.
    static let tricky = [
        "", " ", "a", "A", "b", "B", "é", "e", "f", "E", "É", "file2", "file10", "file02", "File2",
        "file 2", "file1.5", "file1.10", "x1y2", "x01y2", "x1y10", "Ä", "z", "ä", "_a", "1", "10",
        "2", "01", "0", "00", "-", " a", "a b", "ab", "a-b", "a_b", "ﬁle", "Ａ", "a\u{301}", "á",
        "1e5", "100000000000000000000000", "99999999999999999999999", "ß", "ss", "SS", "Æ", "ae",
        "œ", "Œ", "oe", "ø", "o", "p", "ı", "i", "I", "İ", "Résumé", "resume", "Resume", "résumé",
        "Note 9", "Note 10", "note 9", "Note 09", "Straße", "Strasse", "Ångström", "angstrom",
        "Zoë", "Zoe", "naïve", "naive", "(draft)", "[draft]", "#1", "$5", "~", "Ça va", "ça",
        "Łódź", "Lodz", "Dvořák", "Dvorak", "émile", "Emile", "2 Trips", "Trip 2", "Trip 2b",
        "Trip 2 b", "Trip  2",
    ]

    @Test func keysSortAsLocalizedStandardCompare() {
        let byComparator = Self.tricky.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        let byKey = Self.tricky.sorted { TitleSortKey.make($0).lexicographicallyPrecedes(TitleSortKey.make($1)) }
        #expect(byKey == byComparator)
        for (index, title) in byKey.enumerated() where byComparator[index] != title {
            Issue.record(
                "at \(index): key \(title.debugDescription), comparator \(byComparator[index].debugDescription)")
            break
        }
    }

    @Test func onlyEqualTitlesHaveEqualKeys() {
        let keys = Set(Self.tricky.map(TitleSortKey.make))
        #expect(keys.count == Set(Self.tricky.map { Array($0.utf8) }).count)
    }

    /// Every title of one to three pieces people type (words in both cases, accented letters,
    /// numbers with and without leading zeros, spaces and punctuation).
    @Test func titlesOfPiecesSortAsLocalizedStandardCompare() {
        let pieces = [
            "a", "B", "é", "E", "ö", "O", "ß", "S", "æ", "1", "01", "2", "10", " ", "-", "_", ".", "(", "note",
            "Note", "café", "Cafe", "ﬁ", "ø", "ı",
        ]
        let short = ["a", "É", "1", "01", "10", " ", "-", "Note", "ß", "ø"]
        var titles = pieces
        for first in pieces { titles += pieces.map { first + $0 } }
        for first in short { for second in short { titles += short.map { first + second + $0 } } }
        let keys = Dictionary(titles.map { (Array($0.utf8), TitleSortKey.make($0)) }, uniquingKeysWith: { a, _ in a })
        let byKey = titles.sorted { keys[Array($0.utf8)]!.lexicographicallyPrecedes(keys[Array($1.utf8)]!) }
        // Each title sorts before the next as the comparator says (a sort by the comparator itself
        // could differ where it is not transitive).
        let disagreements = zip(byKey, byKey.dropFirst()).filter {
            $0.localizedStandardCompare($1) == .orderedDescending
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20))")
    }
}
