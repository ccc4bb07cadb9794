import Foundation

/// The checks behind ``PasswordStrength``: the common list, look-alike spellings, repeats and
/// sequences, and the size of the alphabet a password draws on.
extension PasswordStrength {
    /// The common passwords as a set, built once.
    static let commonPasswords: Set<String> = Set(
        commonPasswordList.split(separator: "\n").map(String.init))

    /// The common passwords long enough to look for inside another, longest first.
    static let commonWords: [[Character]] = commonPasswords.filter { $0.count >= 4 }
        .sorted { $0.count > $1.count }.map(Array.init)

    /// The fewest characters a password must have beyond a common one inside it.
    static let minimumBeyondCommon = 5

    /// True when `lower` (lowercased) is a common password, once digits and symbols are trimmed
    /// off its ends and look-alike swaps undone, or a common one with under
    /// ``minimumBeyondCommon`` unpatterned characters around it (or repeated).
    static func isCommon(_ lower: [Character]) -> Bool {
        let core = Array(lower.drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed())
        let candidates = [lower] + spellings(of: core)
        if candidates.contains(where: { !$0.isEmpty && commonPasswords.contains(String($0)) }) {
            return true
        }
        for spelling in spellings(of: lower) {
            let text = String(spelling)
            for word in commonWords where word.count <= spelling.count {
                let rest = text.replacingOccurrences(of: String(word), with: "")
                if rest.count < text.count, effectiveLength(Array(rest)) < minimumBeyondCommon { return true }
            }
        }
        return false
    }

    /// `lower` as written and with look-alike swaps undone (`p@ssw0rd` → `password`; 1 read both
    /// as i and as l).
    static func spellings(of lower: [Character]) -> [[Character]] {
        let swaps: [Character: Character] = [
            "0": "o", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g", "@": "a", "$": "s",
            "!": "i", "+": "t",
        ]
        func undo(one: Character) -> [Character] {
            lower.map { $0 == "1" ? one : swaps[$0] ?? $0 }
        }
        return [lower, undo(one: "i"), undo(one: "l")]
    }

    /// How many characters of `characters` a guesser cannot predict from the ones before: a
    /// repeated block counts once (plus one for repeating it), and in a run that keeps the same
    /// step (`aaa`, `abc`, `321`, `qwe` along a keyboard row) only the first two count.
    static func effectiveLength(_ characters: [Character]) -> Int {
        let count = characters.count
        if count >= 4 {
            for unit in 1...(count - 3)
            where (unit..<count).allSatisfy({ characters[$0] == characters[$0 % unit] }) {
                return effectiveLength(Array(characters[0..<unit])) + 1
            }
        }
        var unpredictable = 0
        for index in characters.indices {
            if index >= 2, let step = step(characters[index - 1], characters[index]),
                step == Self.step(characters[index - 2], characters[index - 1])
            {
                continue
            }
            unpredictable += 1
        }
        return unpredictable
    }

    private static let keyboardRows: [[Character]] = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]
        .map(Array.init)

    /// The step from `a` to `b`: 0 for the same character, ±1 for neighbouring code points,
    /// ±10 for neighbours on a keyboard row; nil otherwise.
    private static func step(_ a: Character, _ b: Character) -> Int? {
        if a == b { return 0 }
        if let x = a.unicodeScalars.first?.value, let y = b.unicodeScalars.first?.value,
            a.unicodeScalars.count == 1, b.unicodeScalars.count == 1, abs(Int(y) - Int(x)) == 1
        {
            return Int(y) - Int(x)
        }
        for row in keyboardRows {
            if let i = row.firstIndex(of: a), let j = row.firstIndex(of: b), abs(i - j) == 1 {
                return (j - i) * 10
            }
        }
        return nil
    }

    /// The size of the alphabet `characters` draws on: 26 for lower-case letters, 26 for
    /// capitals, 10 for digits, 33 for spaces and ASCII symbols, 100 for anything else.
    static func alphabetSize(_ characters: [Character]) -> Int {
        var size = 0
        if characters.contains(where: { $0.isASCII && $0.isLowercase }) { size += 26 }
        if characters.contains(where: { $0.isASCII && $0.isUppercase }) { size += 26 }
        if characters.contains(where: { $0.isASCII && $0.isNumber }) { size += 10 }
        if characters.contains(where: { $0.isASCII && !$0.isLetter && !$0.isNumber }) { size += 33 }
        if characters.contains(where: { !$0.isASCII }) { size += 100 }
        return max(size, 1)
    }
}
