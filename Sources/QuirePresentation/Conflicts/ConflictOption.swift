import QuireDomain

/// A button of the conflict screen: its words, the choice it makes, and the question to confirm
/// first when the choice deletes the last place a text is.
public struct ConflictOption: Equatable, Sendable, Identifiable {
    public let title: String
    public let choice: ConflictChoice
    public let confirmation: String?

    public var id: String { title }

    public init(title: String, choice: ConflictChoice, confirmation: String? = nil) {
        self.title = title
        self.choice = choice
        self.confirmation = confirmation
    }
}
