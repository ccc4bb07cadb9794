import QuireDomain

/// One version on the conflict screen, labelled by where it was typed.
public struct ConflictSide: Equatable, Sendable, Identifiable {
    public let id: NoteID
    /// "Typed on this device", "Typed on laptop".
    public let label: String
    public let title: String
    public let body: String
    public let isTypedHere: Bool

    public init(id: NoteID, label: String, title: String, body: String, isTypedHere: Bool) {
        self.id = id
        self.label = label
        self.title = title
        self.body = body
        self.isTypedHere = isTypedHere
    }
}
