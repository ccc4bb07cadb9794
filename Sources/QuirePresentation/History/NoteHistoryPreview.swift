import Foundation

/// One version's whole text, shown when it is selected.
public struct NoteHistoryPreview: Equatable, Sendable {
    public let reference: String
    public let title: String
    public let body: String

    public init(reference: String, title: String, body: String) {
        self.reference = reference
        self.title = title
        self.body = body
    }
}
