/// File names for exported notes: from the title, safe on every common file system, unique in
/// their folder (case-insensitively, as macOS and Windows compare names).
struct ExportFileNames {
    /// Lowercased names already used in the folder.
    private var taken: Set<String>

    init(existing: [String]) {
        taken = Set(existing.map { $0.lowercased() })
    }

    /// `Title.md`, or `Title 2.md`, `Title 3.md`… when taken; never a name already in the folder.
    mutating func name(for title: String) -> String {
        let stem = Self.safeStem(title)
        var candidate = stem + ".md"
        var number = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(stem) \(number).md"
            number += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }

    /// The title with path separators, control characters and characters Windows refuses replaced
    /// by `-`, no leading or trailing dots or spaces (no hidden files, no `..`), at most 100
    /// characters; `Untitled` when nothing is left, and never a name Windows reserves.
    static func safeStem(_ title: String) -> String {
        let unsafe: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        var stem = String(
            title.map { character -> Character in
                let control = character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
                return unsafe.contains(character) || control || character.isNewline ? "-" : character
            })
        stem = String(stem.prefix(100))
        while let first = stem.first, first == "." || first.isWhitespace { stem.removeFirst() }
        while let last = stem.last, last == "." || last.isWhitespace { stem.removeLast() }
        if stem.isEmpty { return "Untitled" }
        let reserved = ["CON", "PRN", "AUX", "NUL"] + (1...9).flatMap { ["COM\($0)", "LPT\($0)"] }
        return reserved.contains(stem.uppercased()) ? stem + " note" : stem
    }
}
