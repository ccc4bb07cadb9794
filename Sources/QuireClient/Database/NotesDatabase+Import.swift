import Foundation
import QuireDomain
import QuireSQLite

// MARK: - Importing many notes at once

extension NotesDatabase {
    /// What ``importNotes(_:)`` did.
    public struct ImportOutcome: Sendable, Equatable {
        /// The new notes, in the order given.
        public var imported: [NoteID]
        /// Texts skipped because a live note (or an earlier text of this batch) has the same title
        /// and body: importing the same files twice makes no duplicates.
        public var alreadyHere: Int
    }

    /// Saves each text as a new note, all in one transaction (each as a user's save: its change is
    /// queued), skipping any whose title and body equal a live note's. Publishes once, after the
    /// commit. If anything throws, nothing of the batch is stored.
    /// - Throws: `SQLiteError` when the write fails.
    public func importNotes(_ texts: [NoteText]) throws -> ImportOutcome {
        try write { touched in
            var present = Set(
                try connection.query("SELECT title, body FROM notes WHERE deleted = 0") {
                    NoteText(title: $0.text(0), body: $0.text(1))
                })
            var outcome = ImportOutcome(imported: [], alreadyHere: 0)
            // Indexed for search in one statement, as a pulled page is (client migration 14).
            try indexingSearchOnce {
                for text in texts {
                    guard present.insert(text).inserted else {
                        outcome.alreadyHere += 1
                        continue
                    }
                    let id = NoteID()
                    try saveLocally(id: id, title: text.title, body: text.body, touched: &touched)
                    outcome.imported.append(id)
                }
            }
            return outcome
        }
    }
}
