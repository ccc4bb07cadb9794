import Foundation

/// One text a note had, for the history screen: a version the server keeps, or a save only this
/// device kept.
public struct NoteHistoryVersion: Hashable, Sendable {
    /// How people and the CLI name it: `5` for a server version, `L12` for a text only this device
    /// kept (`quire restore ID --version 5`).
    public var reference: String
    public var savedAt: Date
    public var text: NoteText
    /// The device that typed it: nil when typed here, "" when unknown.
    public var typedOn: String?
    /// The note's current text on the server.
    public var isCurrent: Bool

    public init(reference: String, savedAt: Date, text: NoteText, typedOn: String?, isCurrent: Bool = false) {
        self.reference = reference
        self.savedAt = savedAt
        self.text = text
        self.typedOn = typedOn
        self.isCurrent = isCurrent
    }
}
