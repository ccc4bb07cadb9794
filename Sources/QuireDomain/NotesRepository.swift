import Foundation

/// The notes, for screens: watch them, save one, delete one. Backed by the device's database.
public protocol NotesRepository: Sendable {
    /// Replays the current notes (live ones, newest first), then each committed change, whether it
    /// came from this device or from sync. One stream per caller; it finishes when the caller's task
    /// is cancelled.
    func notes() -> AsyncStream<[Note]>

    /// Saves the note and its pending change, all or none. Throws only if the disk write fails.
    /// Not cancelled by the caller: once started, the save completes.
    ///
    /// `editedFrom` is the text the editor started from. If the note changed since (a pull, another
    /// process), the save is merged with that change three ways; a real clash keeps the note's new
    /// text and saves this text as a linked conflict copy. Nothing typed on either side is lost.
    /// nil: the caller read nothing first (a new note, a script that replaces the text).
    func save(id: NoteID, title: String, body: String, editedFrom: NoteText?) async throws

    /// Like ``notes()``, as summaries: what a list shows, without whole bodies.
    func summaries() -> AsyncStream<[NoteSummary]>

    /// Like ``summaries()``, only the first `count` of them (at least one) and whether more
    /// follow: what a list screen shows before it is scrolled. Each value re-reads the first
    /// `count`; to show more, subscribe again with a larger `count`.
    func summaries(first count: Int) -> AsyncStream<NoteListWindow>

    /// One live note with its whole body, or nil: what an editor opens.
    func note(id: NoteID) async throws -> Note?

    /// The live conflict copies of note `id` (the notes whose `conflictOf` is `id`), newest
    /// first, whole. Wherever they sit in the list: a window of its first rows may not hold them.
    func conflictCopies(of id: NoteID) async throws -> [Note]

    /// Marks a tombstone and queues the delete, all or none. Deleting an unknown or already deleted
    /// note changes nothing.
    func delete(_ id: NoteID) async throws
}

/// The sync status, for screens.
public protocol SyncStatusRepository: Sendable {
    /// Replays the current status, then each change. One stream per caller; finishes when the
    /// caller's task is cancelled.
    func status() -> AsyncStream<SyncStatus>
}

extension NotesRepository {
    /// Summaries mapped from ``notes()``: correct for any repository; a database-backed one reads
    /// only the start of each body instead.
    public func summaries() -> AsyncStream<[NoteSummary]> {
        let notes = notes()
        let (stream, continuation) = AsyncStream.makeStream(
            of: [NoteSummary].self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await list in notes { continuation.yield(list.map(NoteSummary.init)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The window cut from ``summaries()``: correct for any repository; a database-backed one
    /// reads only the first `count` rows by its list index instead.
    public func summaries(first count: Int) -> AsyncStream<NoteListWindow> {
        let summaries = summaries()
        let count = max(1, count)
        let (stream, continuation) = AsyncStream.makeStream(
            of: NoteListWindow.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await list in summaries { continuation.yield(NoteListWindow(first: count, of: list)) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The copies from the first value of ``notes()``: correct for any repository; a
    /// database-backed one reads only the copies, by an index.
    public func conflictCopies(of id: NoteID) async throws -> [Note] {
        for await list in notes() { return list.filter { $0.conflictOf == id } }
        return []
    }

    /// The note from the first value of ``notes()``.
    public func note(id: NoteID) async throws -> Note? {
        for await list in notes() { return list.first { $0.id == id } }
        return nil
    }
}

extension NotesRepository {
    /// Saves with nothing read first (see ``save(id:title:body:editedFrom:)``).
    public func save(id: NoteID, title: String, body: String) async throws {
        try await save(id: id, title: title, body: body, editedFrom: nil)
    }
}
