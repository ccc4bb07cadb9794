import Foundation

/// The bytes that sort note titles as Finder does (`localizedStandardCompare`: case-insensitive,
/// accents after the letters, numbers by value), compared byte by byte: a database index holds
/// them, so a list by title reads only the rows it shows.
///
/// Levels, as the Unicode collation algorithm has them, each ended by a 0 byte: the letters,
/// numbers and punctuation (case and accents folded, numbers by value); then the accents; then
/// case, width and leading zeros; then the title's own UTF-8, so only equal titles tie.
/// Matches `localizedStandardCompare` on Latin titles, digits, punctuation and spaces
/// (TitleSortKeyTests: every title of up to three such pieces). Other scripts sort after Latin,
/// by code point; full-width letters next to ligatures ("Ｆﬁ") are where the comparator's own
/// quirks are not reproduced.
public enum TitleSortKey {
    /// The key of `title`.
    public static func make(_ title: String) -> [UInt8] {
        var levels = Levels()
        let scalars = folded(title)
        var index = 0
        while index < scalars.count {
            let (scalar, compatible) = scalars[index]
            if isASCIIDigit(scalar) {
                var end = index
                while end < scalars.count, isASCIIDigit(scalars[end].scalar) { end += 1 }
                levels.number(scalars[index..<end].map { UInt8($0.scalar.value) })
                index = end
                continue
            }
            index += 1
            if scalar.isASCII, let byte = asciiLetterOrRank(scalar) {
                levels.ascii(byte)
                continue
            }
            let properties = scalar.properties
            if properties.generalCategory == .control || properties.generalCategory == .format { continue }
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark
                || properties.generalCategory == .spacingMark
            {
                levels.mark(scalar.value)
            } else if let rank = punctuationRank[scalar.value] {
                levels.element([0x02, rank])
            } else if isPunctuationOrSymbol(properties) {
                levels.element([0x02, 0xFF] + bigEndian(scalar.value))
            } else {
                levels.letter(scalar, compatible: compatible)
            }
        }
        return levels.bytes(identical: Array(title.utf8))
    }

    /// The title's scalars decomposed (accents apart from their letters, ligatures and full-width
    /// forms into plain letters), each marked when it came from a compatibility form.
    private static func folded(_ title: String) -> [(scalar: Unicode.Scalar, compatible: Bool)] {
        var scalars: [(scalar: Unicode.Scalar, compatible: Bool)] = []
        for scalar in title.unicodeScalars {
            if scalar.isASCII {
                scalars.append((scalar, false))
                continue
            }
            let alone = String(scalar)
            let plain = alone.decomposedStringWithCompatibilityMapping
            let compatible = plain != alone.decomposedStringWithCanonicalMapping
            for part in plain.unicodeScalars { scalars.append((part, compatible)) }
        }
        return scalars
    }

    /// ASCII spaces and punctuation in `localizedStandardCompare`'s order, all before digits.
    static let punctuationRank: [UInt32: UInt8] = {
        let order = "\t\n\u{0B}\u{0C}\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
        var ranks: [UInt32: UInt8] = [:]
        for (offset, scalar) in order.unicodeScalars.enumerated() { ranks[scalar.value] = UInt8(offset + 1) }
        return ranks
    }()

    /// An ASCII letter as itself, or ASCII punctuation as its rank with the high bit set: the
    /// common case, without a look at Unicode properties. nil for control characters.
    private static func asciiLetterOrRank(_ scalar: Unicode.Scalar) -> UInt8? {
        let value = UInt8(scalar.value)
        if (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) { return value }
        return punctuationRank[scalar.value].map { $0 | 0x80 }
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x30 && scalar.value <= 0x39
    }

    private static func isPunctuationOrSymbol(_ properties: Unicode.Scalar.Properties) -> Bool {
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
            .modifierSymbol, .otherSymbol, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            true
        default: false
        }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
