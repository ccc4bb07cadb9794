import Foundation

/// A note's earlier texts and the trash, for the history and trash screens (as `quire history`,
/// `quire trash` and `quire restore`).
public protocol NoteHistoryRepository: Sendable {
    /// The note's texts, newest first (see ``NoteHistory``).
    func history(of id: NoteID) async throws -> NoteHistory

    /// Makes the version named `reference` the note's current text, as an ordinary change that
    /// syncs; the text it replaces stays in the history. Returns false, writing nothing, when the
    /// note already has that text.
    func restore(_ id: NoteID, version reference: String) async throws -> Bool

    /// The deleted notes that can be brought back, most recently deleted first.
    func trash() async throws -> NoteTrash

    /// Brings a deleted note back with the last text it had, as a change that syncs.
    func restoreFromTrash(_ id: NoteID) async throws
}
