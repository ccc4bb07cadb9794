import Foundation
import QuireDomain

/// The plaintext inside a note's payload: what the sealed payload opens to.
public struct NoteContent: Hashable, Sendable, Codable {
    public var title: String
    public var body: String
    /// For a conflict copy: the original note's id.
    public var conflictOf: NoteID?

    public init(title: String, body: String, conflictOf: NoteID? = nil) {
        self.title = title
        self.body = body
        self.conflictOf = conflictOf
    }

    public var text: NoteText { NoteText(title: title, body: body) }
}
