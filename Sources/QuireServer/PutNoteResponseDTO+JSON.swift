import Foundation
import QuireWire

extension PutNoteResponseDTO {
    /// The same bytes as `WireJSON.encode(self)` (sorted keys, no spaces, absent fields left
    /// out), written directly: the answer every successful PUT carries, so it skips
    /// `JSONEncoder`'s generic walk. A string that JSON would escape (a quote, a backslash, a
    /// control or non-ASCII character: never a sealed cursor or a version tag) goes through
    /// `WireJSON` instead.
    var wireJSON: Data {
        let strings = [cursor, previousCursor, versionTag].compactMap { $0 }
        guard strings.allSatisfy(DirectJSON.needsNoEscape) else { return WireJSON.encode(self) }
        var text = "{"
        if let cursor { text += #""cursor":""# + cursor + #"","# }
        if let previousCursor { text += #""previousCursor":""# + previousCursor + #"","# }
        text += #""version":"# + String(version)
        if let versionTag { text += #","versionTag":""# + versionTag + #"""# }
        text += "}"
        return Data(text.utf8)
    }
}
