import Foundation

/// Standard output and error, written through FileHandle (the global `stdout` is not
/// concurrency-safe in Swift 6).
///
/// On a terminal, `out` and `err` show control characters as text (``TerminalText``): a note's
/// title or body must not drive the terminal. Piped, every byte goes through as it is.
struct Console: Sendable {
    func out(_ line: String) {
        FileHandle.standardOutput.write(Data(((stdoutIsTerminal ? TerminalText.visible(line) : line) + "\n").utf8))
    }

    /// A line whose escape sequences are Quire's own (search's bold), its other text already made
    /// ``TerminalText/visible(_:)`` by the caller.
    func outFormatted(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func err(_ line: String) {
        FileHandle.standardError.write(Data(((stderrIsTerminal ? TerminalText.visible(line) : line) + "\n").utf8))
    }

    /// Writes JSON text already encoded (as `json` would have written it) on stdout, with the
    /// same final newline.
    func json(encoded data: Data) {
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Writes `value` as pretty, key-sorted JSON on stdout.
    func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Writes `value` as one line of compact, key-sorted JSON on stderr (progress events).
    func errJSONLine<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }

    /// Rewrites one progress line in place on stderr (a carriage return, no newline); nil ends it
    /// and clears the line. Call only when ``stderrIsTerminal``.
    func progress(_ line: String?) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + (line ?? "")).utf8))
    }

    /// The size of the window stdout shows in, when it is a terminal that knows it.
    static var windowSize: (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(FileHandle.standardOutput.fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0
        else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The terminal's width in columns: the window's, else `$COLUMNS`, else 80.
    static var terminalWidth: Int {
        windowSize?.columns ?? ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) } ?? 80
    }

    /// True when stdout is a terminal: marks and colours go there only then.
    var stdoutIsTerminal: Bool { Self.stdoutTerminal }

    /// True when stderr is a terminal: progress lines go there only then.
    var stderrIsTerminal: Bool { Self.stderrTerminal }

    /// Asked once a process (every line written asks; the streams do not change under it).
    private static let stdoutTerminal = isatty(FileHandle.standardOutput.fileDescriptor) == 1
    private static let stderrTerminal = isatty(FileHandle.standardError.fileDescriptor) == 1
}
