import Foundation
import QuireWire

extension BatchResponseDTO {
    /// The same bytes as `WireJSON.encode(self)` (sorted keys, no spaces, absent fields left out),
    /// with each result of a plain outcome (no note, no error: a saved, deleted or replayed change)
    /// written directly, so a batch of 100 saved notes skips `JSONEncoder`'s generic walk. A result
    /// with a note or an error, or with a string JSON would escape, goes through `WireJSON`.
    var wireJSON: Data {
        var json = Data(#"{"results":["#.utf8)
        for (index, result) in results.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(result.directJSON ?? WireJSON.encode(result))
        }
        json.append(contentsOf: "]}".utf8)
        return json
    }
}

extension BatchResultDTO {
    /// This result's JSON written directly, or nil when it carries a note or an error or a
    /// string JSON would escape.
    fileprivate var directJSON: Data? {
        guard note == nil, error == nil,
            [cursor, previousCursor, versionTag].allSatisfy({ $0.map(DirectJSON.needsNoEscape) ?? true })
        else { return nil }
        var fields: [String] = []
        if let baseKnown { fields.append(#""baseKnown":"# + String(baseKnown)) }
        if let cursor { fields.append(#""cursor":""# + cursor + #"""#) }
        if let previousCursor { fields.append(#""previousCursor":""# + previousCursor + #"""#) }
        if let replayed { fields.append(#""replayed":"# + String(replayed)) }
        fields.append(#""status":"# + String(status))
        if let version { fields.append(#""version":"# + String(version)) }
        if let versionTag { fields.append(#""versionTag":""# + versionTag + #"""#) }
        return Data(("{" + fields.joined(separator: ",") + "}").utf8)
    }
}
