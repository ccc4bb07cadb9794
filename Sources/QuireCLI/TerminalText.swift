/// Text for a terminal, where a control character is an instruction, not text: an escape
/// sequence in a note's title (from an imported file, or typed on another device) would clear
/// the screen, hide the rows above it, or retitle the window. Each control character shows as
/// `cat -v` shows it (`^[` for ESC, `^M` for a carriage return alone, `^?` for DEL, `^` then a
/// letter for the rest of C0; a C1 control as `\u{FFFD}`); line breaks (and a carriage return
/// before one) and tabs stay.
enum TerminalText {
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let beforeNewline = index + 1 < scalars.count && scalars[index + 1] == "\n"
            guard isHidden(scalar), !(scalar == "\r" && beforeNewline) else {
                shown.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x7F: shown.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F: shown.append("\u{FFFD}")
            default:
                shown.append("^")
                shown.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            }
        }
        return String(shown)
    }

    /// `text` on one line: each line break (CRLF, LF or CR) a space. For a title in a list, whose
    /// row must stay one row.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A control character other than a line break or a tab.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        default: false
        }
    }
}
