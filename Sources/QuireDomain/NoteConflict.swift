import Foundation

/// A conflict copy and the note it was split from, as the conflict screen shows them: both texts,
/// and where each was typed.
public struct NoteConflict: Equatable, Sendable {
    /// One side of the conflict.
    public struct Version: Equatable, Sendable {
        public let note: Note
        /// The name of the device that typed this text; nil: this device.
        public let typedOn: String?

        public init(note: Note, typedOn: String?) {
            self.note = note
            self.typedOn = typedOn
        }

        /// The text was typed on this device.
        public var isTypedHere: Bool { typedOn == nil }
    }

    /// The note the copy was split from; nil when it was deleted since.
    public let original: Version?
    public let copy: Version

    public init(original: Version?, copy: Version) {
        self.original = original
        self.copy = copy
    }
}
