import Foundation

extension TitleSortKey {
    /// The key's levels as they are built, one element (a letter, a number, a punctuation mark)
    /// at a time.
    struct Levels {
        private var primary: [UInt8] = []
        /// Each element's accents, in order.
        private var accents: [[UInt32]] = []
        /// Each element's case (a number's: its leading zeros).
        private var cases: [UInt8] = []

        /// Case-level weights: lower case first, then upper case, then compatibility forms (full
        /// width, ligatures) and letters that stand for two (æ, œ, ß).
        private static let lower: UInt8 = 0x01
        private static let upper: UInt8 = 0x02
        private static let compatibleOffset: UInt8 = 0x02
        private static let expandedLower: UInt8 = 0x05
        private static let expandedUpper: UInt8 = 0x06

        /// Letters that sort as other letters (Latin-1 and Latin Extended-A): what they stand for,
        /// and an accent for those that sort right after it.
        private static let expansions: [UInt32: (letters: String, accent: UInt32?)] = [
            0xE6: ("ae", 0xFF00), 0x153: ("oe", 0xFF00), 0xDF: ("ss", nil), 0xF8: ("o", 0x0338),
            0x111: ("d", 0x0335), 0x142: ("l", 0x0337), 0x131: ("i", 0xFFFF),
        ]

        /// An ASCII letter (itself) or punctuation mark (its rank, high bit set).
        mutating func ascii(_ byte: UInt8) {
            if byte & 0x80 != 0 {
                primary.append(0x02)
                primary.append(byte & 0x7F)
                cases.append(Self.lower)
            } else {
                primary.append(byte | 0x20)
                cases.append(byte & 0x20 == 0 ? Self.upper : Self.lower)
            }
            accents.append([])
        }

        mutating func element(_ bytes: [UInt8], case weight: UInt8 = lower) {
            primary += bytes
            accents.append([])
            cases.append(weight)
        }

        /// A combining mark: an accent on the element before it.
        mutating func mark(_ value: UInt32) {
            if accents.isEmpty { accents.append([]) }
            accents[accents.count - 1].append(value)
        }

        /// A number, by value: its significant digits' count, then the digits; its leading zeros
        /// count where a letter's case does.
        mutating func number(_ digits: [UInt8]) {
            let significant = Array(digits.drop { $0 == 0x30 })
            let value = significant.isEmpty ? [UInt8(0x30)] : significant
            let count = min(value.count, Int(UInt16.max))
            let zeros = UInt8(min(digits.count - value.count, 254) + 1)
            element([0x03, UInt8(count >> 8), UInt8(count & 0xFF)] + value, case: zeros)
        }

        mutating func letter(_ scalar: Unicode.Scalar, compatible: Bool) {
            let isUpper = scalar.properties.changesWhenLowercased
            let lowered = scalar.properties.lowercaseMapping.unicodeScalars
            if lowered.count == 1, let single = lowered.first, let expansion = Self.expansions[single.value] {
                for letter in expansion.letters.unicodeScalars {
                    element(Self.primary(letter), case: isUpper ? Self.expandedUpper : Self.expandedLower)
                }
                if let accent = expansion.accent { mark(accent) }
                return
            }
            var weight = isUpper ? Self.upper : Self.lower
            if compatible { weight += Self.compatibleOffset }
            element(lowered.flatMap(Self.primary), case: weight)
        }

        /// A lower-case letter's primary bytes: ASCII letters as themselves, others after them,
        /// by code point.
        private static func primary(_ scalar: Unicode.Scalar) -> [UInt8] {
            scalar.isASCII ? [UInt8(scalar.value)] : [0xF0] + bigEndian(scalar.value)
        }

        /// The levels, each ended by a 0 byte, then `identical`.
        func bytes(identical: [UInt8]) -> [UInt8] {
            var key = primary
            key.append(0)
            for marks in accents {
                for mark in marks { key += [UInt8(min(mark, 0xFFFF) >> 8), UInt8(mark & 0xFF)] }
                key.append(0x01)
            }
            key.append(0)
            key += cases
            key.append(0)
            return key + identical
        }
    }
}
