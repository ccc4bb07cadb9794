import Foundation
import QuireMerge

/// One side of a conflict: the note's text on that side, or its deletion.
public enum Side: Equatable, Sendable {
    case edited(NoteText)
    case deleted
}

/// What a conflict becomes. Every case keeps every text someone typed.
public enum ConflictResolution: Equatable, Sendable {
    /// Both sides already hold the same text: no conflict; take the server's version as is.
    case alreadyEqual
    /// The edits combine cleanly: this text goes to the server on top of the server's version.
    case merged(NoteText)
    /// A real clash: the server's text stays the note; the local text becomes a new note, `copy`,
    /// linked to the original.
    case keepBoth(copy: NoteText)
    /// The server deleted the note, this device edited it: the local text comes back, sent on top
    /// of the tombstone, so the note lives again everywhere.
    case recreate
    /// This device deleted the note, another device edited it: the edit wins and the note returns
    /// with the server's text.
    case keepServer
    /// Both deleted it: nothing to do.
    case bothDeleted
}

/// Decides what a conflict becomes. Pure: no disk, no network, no state.
///
/// Two devices, one note "Groceries" at version 4 (the base). The phone adds "eggs" and syncs: the
/// server is at 5. The laptop, offline, renamed it "Groceries (Sat)" and now sends its edit on base 4,
/// gets 409 with version 5, and asks the policy: the title changed on one side and the body on the
/// other, so both edits merge and the laptop sends the merged note on base 5. Had both changed the
/// same line differently, the policy answers `keepBoth`, and the laptop's text becomes a conflict copy.
public struct ConflictPolicy: Sendable {
    public init() {}

    /// Same input, same answer. Never throws.
    ///
    /// - Parameters:
    ///   - base: the text both sides started from (the last version this device had from the
    ///     server), or nil when there is none (a note created here, never confirmed).
    ///   - local: this device's latest text, or its delete.
    ///   - server: the server's current copy, or its tombstone.
    public func resolve(base: NoteText?, local: Side, server: Side) -> ConflictResolution {
        switch (local, server) {
        case (.deleted, .deleted):
            return .bothDeleted
        case (.deleted, .edited):
            return .keepServer
        case (.edited, .deleted):
            return .recreate
        case (.edited(let mine), .edited(let theirs)):
            if mine == theirs { return .alreadyEqual }
            let ancestor = base ?? NoteText(title: "", body: "")
            let title = ThreeWayMerge.merge(
                base: ancestor.title, local: mine.title, server: theirs.title)
            let body = ThreeWayMerge.merge(
                base: ancestor.body, local: mine.body, server: theirs.body)
            if base != nil, case .clean(let mergedTitle) = title, case .clean(let mergedBody) = body {
                let merged = NoteText(title: mergedTitle, body: mergedBody)
                return merged == theirs ? .alreadyEqual : .merged(merged)
            }
            return .keepBoth(copy: NoteText(title: copyTitle(for: mine.title), body: mine.body))
        }
    }

    /// "Groceries" → "Groceries (conflict copy)"; an untitled note → "Untitled (conflict copy)".
    public func copyTitle(for title: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        return (trimmed.isEmpty ? "Untitled" : trimmed) + Self.copySuffix
    }

    /// The title a copy's text had before it became a copy: "Groceries (conflict copy)" →
    /// "Groceries". Used when the user keeps the copy's text ("Keep mine").
    public static func originalTitle(fromCopyTitle title: String) -> String {
        title.hasSuffix(copySuffix) ? String(title.dropLast(copySuffix.count)) : title
    }

    static let copySuffix = " (conflict copy)"
}
