import Foundation

// MARK: - The history page's JSON, written directly

extension NoteHistoryDTO {
    /// The page as ``WireJSON/encode(_:)`` writes it, byte for byte, without `JSONEncoder`'s
    /// per-character cost on the payloads (``JSONTextWriter``): what the server answers
    /// `GET /v1/notes/{id}/versions` with.
    public func wireJSON() -> Data {
        var writer = JSONTextWriter(capacity: versions.reduce(256) { $0 + $1.payload.utf8.count + 128 })
        writer.raw("{")
        writer.key("deleted", first: true)
        writer.bool(deleted)
        writer.key("hasMore")
        writer.bool(hasMore)
        writer.key("id")
        writer.string(id)
        writer.key("updatedAt")
        writer.date(updatedAt)
        writer.key("version")
        writer.int(version)
        if let versionTag {
            writer.key("versionTag")
            writer.string(versionTag)
        }
        writer.key("versions")
        writer.raw("[")
        for (index, entry) in versions.enumerated() {
            if index > 0 { writer.raw(",") }
            entry.write(to: &writer)
        }
        writer.raw("]}")
        return writer.data
    }
}

extension NoteVersionDTO {
    /// One version as ``WireJSON/encode(_:)`` writes it (see ``NoteHistoryDTO/wireJSON()``).
    func write(to writer: inout JSONTextWriter) {
        writer.raw("{")
        var first = true
        if let current {
            writer.key("current", first: true)
            writer.bool(current)
            first = false
        }
        writer.key("payload", first: first)
        writer.string(payload)
        writer.key("savedAt")
        writer.date(savedAt)
        writer.key("version")
        writer.int(version)
        if let versionTag {
            writer.key("versionTag")
            writer.string(versionTag)
        }
        writer.raw("}")
    }
}
