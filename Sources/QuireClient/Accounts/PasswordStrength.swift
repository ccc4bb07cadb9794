import Foundation

/// Whether a new password is strong enough for an end-to-end encrypted account, and if not,
/// what is wrong and how to fix it (issue 12, item 10).
///
/// The password is the only thing between a stolen copy of the server's database and the
/// notes: whoever has the wrapped notes key can guess passwords offline at PBKDF2's speed. So a
/// new password must have at least ``minimumLength`` characters, must not be (or be little more
/// than) one of the ~3,400 most common passwords (``commonPasswordList``, also after undoing
/// `p@ssw0rd`-style swaps and trimming digits and symbols off the ends), must not be mostly
/// repeats or sequences (`aaaa`, `abcabc`, `1234`, `qwerty`), must not contain the username or
/// "quire", and must take at least 10^12 guesses by a rough estimate (the characters left after
/// the repeats and sequences, over the kinds of character used). It is an estimate, not zxcvbn:
/// it knows no dictionary but the common list, so "a few unrelated words" is still the advice.
///
/// Only the device can check: the server never sees the password. ``AccountFlows`` refuses a
/// weak new password before deriving or sending anything; an app calls this to explain as the
/// person types. Pure: no I/O, the same answer for the same input.
public struct PasswordStrength: Sendable, Equatable {
    /// The fewest characters a new password may have.
    public static let minimumLength = 10
    /// The fewest guesses (as a power of ten) the estimate must reach.
    static let minimumGuessesLog10 = 12.0

    /// One thing wrong with a password.
    public enum Problem: Sendable, Equatable {
        /// Fewer than ``minimumLength`` characters.
        case tooShort(length: Int)
        /// A common password, or one with only a little added.
        case common
        /// It contains the account's username.
        case containsUsername
        /// It contains the app's name.
        case containsAppName
        /// Mostly repeated or sequential characters.
        case repetitive
        /// Long enough and unpatterned, but still few guesses (only digits, say).
        case fewGuesses(log10: Int)
    }

    /// Everything wrong, most important first; empty when the password is acceptable.
    public let problems: [Problem]

    /// True when nothing is wrong.
    public var isAcceptable: Bool { problems.isEmpty }

    /// Checks `password` as the new password of `username`.
    public init(password: String, username: String) {
        let characters = Array(password)
        let lower = Array(password.lowercased())
        var problems: [Problem] = []
        if characters.count < Self.minimumLength {
            problems.append(.tooShort(length: characters.count))
        }
        // Below a few characters, "too short" says it all.
        if characters.count >= 4, Self.isCommon(lower) { problems.append(.common) }
        let name = username.lowercased()
        let spellings = Self.spellings(of: lower).map { String($0) }
        if name.count >= 3, spellings.contains(where: { $0.contains(name) }) {
            problems.append(.containsUsername)
        }
        if spellings.contains(where: { $0.contains("quire") }) { problems.append(.containsAppName) }
        if characters.count >= Self.minimumLength {
            let effective = Self.effectiveLength(lower)
            if effective < Self.minimumLength - 2 {
                problems.append(.repetitive)
            } else if problems.isEmpty {
                let guesses = Double(effective) * log10(Double(Self.alphabetSize(characters)))
                if guesses < Self.minimumGuessesLog10 { problems.append(.fewGuesses(log10: Int(guesses))) }
            }
        }
        self.problems = problems
    }

    // MARK: - Telling the person

    /// What is wrong, as a clause: `it has 1 character, and it is a common password`. Empty when
    /// acceptable.
    public var explanation: String {
        let reasons = problems.map(\.reason)
        guard reasons.count > 1 else { return reasons.first ?? "" }
        return reasons.dropLast().joined(separator: ", ") + ", and " + reasons.last!
    }

    /// How to fix it, as a sentence: `Use at least 10 characters; a few unrelated words work well.`
    public var advice: String {
        var fixes: [String] = []
        for fix in problems.map(\.fix) where !fixes.contains(fix) { fixes.append(fix) }
        guard let first = fixes.first else { return "" }
        let sentence = ([first.prefix(1).uppercased() + first.dropFirst()] + fixes.dropFirst())
            .joined(separator: ", ")
        return sentence + "; a few unrelated words work well."
    }

    /// The whole refusal: `The password is too weak: it has 1 character. Use at least 10 …`.
    public var message: String {
        isAcceptable ? "" : "The password is too weak: \(explanation). \(advice)"
    }
}

extension PasswordStrength.Problem {
    var reason: String {
        switch self {
        case .tooShort(let length): "it has \(length) character" + (length == 1 ? "" : "s")
        case .common: "it is a common password, or one with only a little added"
        case .containsUsername: "it contains your username"
        case .containsAppName: "it contains \"quire\""
        case .repetitive: "it is mostly repeats or sequences (like aaaa, abcabc, 1234 or qwerty)"
        case .fewGuesses(let log10): "it would fall to about 10^\(log10) guesses"
        }
    }

    var fix: String {
        switch self {
        case .tooShort: "use at least \(PasswordStrength.minimumLength) characters"
        case .common: "avoid common passwords, even with digits or symbols added"
        case .containsUsername: "leave your username out"
        case .containsAppName: "leave the app's name out"
        case .repetitive: "avoid repeats and sequences"
        case .fewGuesses: "make it longer, or mix letters with digits and symbols"
        }
    }
}
