import Foundation
import QuireDomain

/// The one seam where a note's content becomes the payload the server stores, and back.
///
/// Bound to the note's id so a payload cannot be moved to another note. Opening a payload that was
/// tampered with, sealed for another note or account, or is not a payload at all throws
/// ``PayloadError``; it never traps.
public protocol PayloadCodec: Sendable {
    func seal(_ content: NoteContent, noteID: NoteID) throws -> String
    func open(_ payload: String, noteID: NoteID) throws -> NoteContent
}

/// A payload that could not be opened. Carries no note content.
public struct PayloadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var noteID: NoteID
    public var reason: String

    public init(noteID: NoteID, reason: String) {
        self.noteID = noteID
        self.reason = reason
    }

    public var description: String { "note \(noteID) could not be opened: \(reason)" }
}
