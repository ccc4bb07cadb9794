/// A text's UTF-8 bytes cut into consecutive units, lines or word tokens, each interned as a
/// symbol. The units cover the text exactly: joining them gives the text back.
struct TextUnits {
    /// How a text is cut.
    enum Granularity {
        /// Lines, each with its own terminator ("\n", or "\r\n" kept whole); the last line may
        /// have none. Flag: the line is open (has no terminator), so anything after it would
        /// join it.
        case lines
        /// Runs of word characters (letters, digits, "_"), runs of spaces, single line breaks,
        /// and single other characters (punctuation, emoji), cut on `Character` boundaries so an
        /// emoji or a combining sequence is never split. Flag: the token is a word, so a word
        /// right after it would fuse with it.
        case words
    }

    let bytes: [UInt8]
    /// Unit `i` is `bytes[bounds[i]..<bounds[i + 1]]`.
    private(set) var bounds: [Int] = [0]
    private(set) var symbols: [Int] = []

    init(_ bytes: [UInt8], by granularity: Granularity, table: inout SymbolTable) {
        self.bytes = bytes
        switch granularity {
        case .lines: cutLines(&table)
        case .words: cutWords(&table)
        }
    }

    /// The bytes of units `units`.
    func span(_ units: Range<Int>) -> ArraySlice<UInt8> {
        bytes[bounds[units.lowerBound]..<bounds[units.upperBound]]
    }

    private mutating func append(upTo end: Int, _ table: inout SymbolTable, flag: (ArraySlice<UInt8>) -> Bool) {
        let unit = bytes[bounds[bounds.count - 1]..<end]
        symbols.append(table.intern(unit, flag: flag(unit)))
        bounds.append(end)
    }

    private mutating func cutLines(_ table: inout SymbolTable) {
        let newline = UInt8(ascii: "\n")
        let isOpen: (ArraySlice<UInt8>) -> Bool = { $0.last != newline }
        for index in bytes.indices where bytes[index] == newline {
            append(upTo: index + 1, &table, flag: isOpen)
        }
        if bounds[bounds.count - 1] < bytes.count { append(upTo: bytes.count, &table, flag: isOpen) }
    }

    private mutating func cutWords(_ table: inout SymbolTable) {
        Self.forEachWordToken(in: bytes[...]) { range, isWord in
            append(upTo: range.upperBound, &table) { _ in isWord }
        }
    }

    /// Calls `body` with each word token of `bytes` in order (see `Granularity.words`): its byte
    /// range, and whether it is a word. An ASCII byte followed by another (other than "\r\n") is
    /// one whole `Character`, so most text is cut byte by byte; the stretches around other bytes
    /// are decoded as `String`, from one such boundary to the next, so that no cluster is split.
    static func forEachWordToken(in bytes: ArraySlice<UInt8>, _ body: (Range<Int>, _ isWord: Bool) -> Void) {
        var runKind: CharacterKind?
        var runStart = bytes.startIndex
        func add(_ kind: CharacterKind, at offset: Int) {
            if let current = runKind, !(current == kind && kind.formsRuns) {
                body(runStart..<offset, current == .word)
                runStart = offset
            }
            runKind = kind
        }
        let carriageReturn = UInt8(ascii: "\r")
        let lineFeed = UInt8(ascii: "\n")
        func isBoundary(_ index: Int) -> Bool {
            index == bytes.endIndex
                || (bytes[index - 1] < 0x80 && bytes[index] < 0x80
                    && !(bytes[index - 1] == carriageReturn && bytes[index] == lineFeed))
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] < 0x80 && isBoundary(index + 1) {
                add(CharacterKind(ascii: bytes[index]), at: index)
                index += 1
                continue
            }
            var end = index + 1
            while !isBoundary(end) { end += 1 }
            var offset = index
            for character in String(decoding: bytes[index..<end], as: UTF8.self) {
                add(CharacterKind(character), at: offset)
                offset += character.utf8.count
            }
            index = end
        }
        if let current = runKind { body(runStart..<bytes.endIndex, current == .word) }
    }
}

/// What a character is, for cutting word tokens.
private enum CharacterKind: Equatable {
    case word, space, lineBreak, other

    /// The kind of an ASCII character (for "\r\n", its first byte).
    init(ascii: UInt8) {
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            self = .word
        case 0x0A...0x0D: self = .lineBreak  // "\n", vertical tab, form feed, "\r" (and "\r\n")
        case 0x09, 0x20: self = .space
        default: self = .other
        }
    }

    init(_ character: Character) {
        // ASCII, by far the most common, skips the Unicode property lookups; same answers.
        if let ascii = character.asciiValue {
            self.init(ascii: ascii)
        } else if character.isLetter || character.isNumber || character == "_" {
            self = .word
        } else if character.isNewline {
            self = .lineBreak
        } else if character.isWhitespace {
            self = .space
        } else {
            self = .other
        }
    }

    /// Words and spaces group into runs; line breaks and other characters stand alone.
    var formsRuns: Bool { self == .word || self == .space }
}
