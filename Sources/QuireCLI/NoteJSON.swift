import Foundation
import QuireDomain

/// A note as `--json` prints it. The field names are a scripting contract: keep them stable.
struct NoteJSON: Encodable {
    var id: String
    var title: String
    var body: String
    /// `synced`, `pending`, `conflict` or `refused`.
    var state: String
    var pendingChanges: Int
    var conflictOf: String?
    var updatedAt: Date
    /// Why the note is not reaching the server (refused, or stuck); null when nothing is wrong.
    var syncIssue: String?

    init(_ note: Note) {
        id = note.id.description
        title = note.title
        body = note.body
        state = note.sync.label
        if case .pending(let count) = note.sync { pendingChanges = count } else { pendingChanges = 0 }
        conflictOf = note.conflictOf?.description
        updatedAt = note.updatedAt
        syncIssue = note.syncIssue
    }

    enum CodingKeys: String, CodingKey {
        case id, title, body, state, pendingChanges, conflictOf, updatedAt, syncIssue
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(state, forKey: .state)
        try container.encode(pendingChanges, forKey: .pendingChanges)
        try container.encode(conflictOf, forKey: .conflictOf)  // null, not absent
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(syncIssue, forKey: .syncIssue)  // null, not absent
    }
}
