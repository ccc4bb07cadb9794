import Foundation
import QuireDomain

/// Everything the notes screen shows, as one value (seed 000 card 2).
public struct NotesViewState: Equatable, Sendable {
    public init() {}
}
