import QuireClient

/// A live note as the checks compare it: what must be byte-identical on every device and the
/// server once they have converged.
public struct NoteSnapshot: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var id: String
    public var title: String
    public var body: String
    public var conflictOf: String?

    public init(id: String, title: String, body: String, conflictOf: String?) {
        self.id = id
        self.title = title
        self.body = body
        self.conflictOf = conflictOf
    }

    init(_ record: NoteRecord) {
        self.init(
            id: record.id.description, title: record.title, body: record.body,
            conflictOf: record.conflictOf?.description)
    }

    /// The body's lines, as the user edits them (none for an empty body).
    var lines: [String] {
        body.isEmpty
            ? [] : body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public static func < (lhs: NoteSnapshot, rhs: NoteSnapshot) -> Bool {
        (lhs.title, lhs.body, lhs.id) < (rhs.title, rhs.body, rhs.id)
    }

    public var description: String {
        "\"\(title)\" [\(lines.joined(separator: ", "))]" + (conflictOf == nil ? "" : " (copy)")
    }
}
