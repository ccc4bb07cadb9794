import Foundation

/// What a person typed into a note: its title and its body.
public struct NoteText: Hashable, Sendable, Codable {
    public var title: String
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }
}
