import Foundation

/// Why the notes database refused an operation (SQLite failures surface as `SQLiteError`).
public struct NotesDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The note changed after the engine read its conflict context; read it again.
        case staleConflict
        /// A result for another account than the one this database is bound to.
        case wrongAccount
        /// No such pending change (already completed or dropped).
        case unknownChange
        /// No such live note.
        case unknownNote
        /// The note is not a conflict copy.
        case notAConflictCopy
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// True when `error` is a `NotesDatabaseError` of this kind.
    public static func isKind(_ kind: Kind, _ error: Error) -> Bool {
        (error as? NotesDatabaseError)?.kind == kind
    }
}
