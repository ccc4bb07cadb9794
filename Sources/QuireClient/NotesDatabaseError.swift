import Foundation

/// Why the notes database refused an operation (SQLite failures surface as `SQLiteError`).
public typealias NotesDatabaseError = KindedError<NotesDatabaseErrorKind>

/// What a ``NotesDatabaseError`` is about.
public enum NotesDatabaseErrorKind: Hashable, Sendable {
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
