import Foundation
import QuireDomain

/// The deleted notes that can come back, as `quire trash` lists them and the trash screen shows
/// them: the server's trash (when signed in and it could be read) and this device's, each note
/// once, most recently deleted first.
public struct NoteTrashListing: Sendable {
    /// One deleted note: from the server's trash, this device's, or both.
    public struct Entry: Sendable {
        public var id: NoteID
        public var title: String
        public var body: String
        public var deletedAt: Date
        public var conflictOf: NoteID?
        /// The tombstone on the server, when it has it: what a restore is written on.
        public var server: ServerNoteState?
        /// Deleted here; the delete has not reached the server.
        public var deleteUnsent: Bool
    }

    public var entries: [Entry]
    /// Why the server's trash could not be read.
    public var serverError: NotesAPIError?
    /// Deleted notes on the server whose last text did not open with this account's key.
    public var unreadable: Int

    /// Reads this device's trash and the server's (through `reader`, nil when signed out). A note
    /// live on this device (its delete not pulled yet) is listed from the server's trash all the
    /// same. Throws only when this device's database cannot be read.
    public static func read(database: NotesDatabase, reader: NoteHistoryReader?) async throws -> NoteTrashListing {
        var entries: [NoteID: Entry] = [:]
        for note in try await database.localTrash() {
            entries[note.id] = Entry(
                id: note.id, title: note.title, body: note.body, deletedAt: note.deletedAt, conflictOf: nil,
                server: nil, deleteUnsent: note.deleteUnsent)
        }
        var serverError: NotesAPIError?
        var unreadable = 0
        if let reader {
            do {
                let trash = try await reader.trash()
                for note in trash.notes where entries[note.id]?.deleteUnsent != true {
                    entries[note.id] = Entry(
                        id: note.id, title: note.last.title, body: note.last.body, deletedAt: note.deletedAt,
                        conflictOf: note.conflictOf,
                        server: ServerNoteState(version: note.version, versionTag: note.versionTag, deleted: true),
                        deleteUnsent: false)
                }
                unreadable = trash.unreadable
            } catch let error as NotesAPIError {
                serverError = error
            }
        }
        let sorted = entries.values.sorted { ($0.deletedAt, $0.id) > ($1.deletedAt, $1.id) }
        return NoteTrashListing(entries: sorted, serverError: serverError, unreadable: unreadable)
    }

    /// Brings `entry`'s note back with the last text it had, as a change that syncs.
    public static func restore(_ entry: Entry, in database: NotesDatabase) async throws {
        try await database.restoreNote(
            id: entry.id, title: entry.title, body: entry.body, conflictOf: entry.conflictOf, server: entry.server)
    }
}
