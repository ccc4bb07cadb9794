import Foundation

/// The conflicts, for the conflict screen: read one with both its texts, settle it.
public protocol NoteConflictsRepository: Sendable {
    /// The conflict `id` takes part in: `id` is a conflict copy (its original is read with it), or
    /// a note with a live conflict copy (its first one). nil when `id` is in no conflict.
    func conflict(involving id: NoteID) async throws -> NoteConflict?

    /// Settles the conflict of `copy` by side (see ``ConflictChoice``), as one synced change.
    func resolve(copy: NoteID, keep choice: ConflictChoice) async throws
}
