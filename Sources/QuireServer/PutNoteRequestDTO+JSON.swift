import Foundation
import QuireWire

extension PutNoteRequestDTO {
    /// The same bytes as `WireJSON.encode(self)` (sorted keys, no spaces, `baseVersion` null when
    /// absent, `baseVersionTag` left out when absent), written directly: a batch's fingerprint of
    /// each put is that of this body on the single route, and `JSONEncoder` escaping a 3 KB payload
    /// a change was a large part of a batch's cost. A string JSON would escape goes through
    /// `WireJSON` instead.
    var wireJSON: Data {
        guard DirectJSON.needsNoEscape(payload), baseVersionTag.map(DirectJSON.needsNoEscape) ?? true else {
            return WireJSON.encode(self)
        }
        var text = #"{"baseVersion":"# + (baseVersion.map { String($0) } ?? "null")
        if let baseVersionTag { text += #","baseVersionTag":""# + baseVersionTag + #"""# }
        text += #","payload":""# + payload + #""}"#
        return Data(text.utf8)
    }
}
