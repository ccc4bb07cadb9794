import Foundation
import QuireDomain

/// A note's texts as `quire history` lists them and the history screen shows them: the server's
/// history (when signed in and it could be read) merged with this device's.
public struct NoteHistoryListing: Sendable {
    public var id: NoteID
    /// Newest first (see ``NoteHistoryMerge``).
    public var versions: [NoteVersion]
    /// The server's history; nil when it was not read, could not be, or has no such note.
    public var server: NoteHistoryReader.History?
    /// Why the server's history could not be read (a 404, a note it never had, is not an error).
    public var serverError: NotesAPIError?

    /// Reads the note's history from the server (through `reader`, nil when signed out) and this
    /// device. Throws only when this device's database cannot be read.
    public static func read(_ id: NoteID, database: NotesDatabase, reader: NoteHistoryReader?) async throws
        -> NoteHistoryListing
    {
        let local = try await database.localHistory(of: id)
        var server: NoteHistoryReader.History?
        var serverError: NotesAPIError?
        if let reader {
            do {
                server = try await reader.history(of: id)
            } catch let error as NotesAPIError where error.status == 404 {
                server = nil  // Never synced, or purged: this device's texts are all there is.
            } catch let error as NotesAPIError {
                serverError = error
            }
        }
        return NoteHistoryListing(
            id: id, versions: NoteHistoryMerge.merged(server: server?.versions, local: local), server: server,
            serverError: serverError)
    }

    /// Versions on the server that did not open with this account's key.
    public var unreadable: Int { server?.unreadable ?? 0 }

    /// Makes `version` the note's current text, as a change that syncs; the text it replaces stays
    /// in the history. Returns false, writing nothing, when the note already has that text (the
    /// server's current text when it was read, else this device's).
    public func restore(_ version: NoteVersion, in database: NotesDatabase) async throws -> Bool {
        let state = server.map { history in
            let current = history.versions.first { $0.isCurrent }
            return ServerNoteState(
                version: history.version, versionTag: history.versionTag, deleted: history.deleted,
                current: current.map { NoteContent(title: $0.title, body: $0.body) })
        }
        var currentText = try await database.noteRow(id: id).map { NoteText(title: $0.title, body: $0.body) }
        if let state { currentText = state.deleted ? nil : state.current?.text }
        if currentText == version.text { return false }
        try await database.restoreNote(id: id, title: version.title, body: version.body, server: state)
        return true
    }
}
