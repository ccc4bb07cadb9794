import Foundation

/// An invite link just made: its text, to copy or share, and who it lets in.
public struct TripInviteLinkText: Equatable, Sendable {
    public let text: String
    public let note: String

    public init(text: String, note: String) {
        self.text = text
        self.note = note
    }
}
