import Foundation
import QuireDomain

/// The notes for screens (seed 000 card 3): the database's rows as `Note`s, and saves and deletes
/// as one atomic database call each.
public final class LocalNotesRepository: NotesRepository {
    private let records: any NoteRecords

    public init(records: any NoteRecords) {
        self.records = records
    }

    /// Replays the live notes, newest first, then each committed change. Finishes when the
    /// caller's task is cancelled.
    public func notes() -> AsyncStream<[Note]> {
        let rows = records.noteRows()
        let (stream, continuation) = AsyncStream.makeStream(
            of: [Note].self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await records in rows {
                continuation.yield(records.map(Self.note))
            }
            continuation.finish()
        }
        // Cancelling the consumer cancels the relay, which ends the database's stream in turn.
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Replays the live notes as summaries, read without whole bodies. Finishes when the caller's
    /// task is cancelled.
    public func summaries() -> AsyncStream<[NoteSummary]> {
        let rows = records.noteSummaryRows()
        let (stream, continuation) = AsyncStream.makeStream(
            of: [NoteSummary].self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await records in rows {
                continuation.yield(records.map(Self.summary))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Replays the first `count` live notes as summaries and whether more follow, then again
    /// after each committed change. Only those rows are read (by the list's index), whatever the
    /// number of notes. Finishes when the caller's task is cancelled.
    public func summaries(first count: Int) -> AsyncStream<NoteListWindow> {
        let count = max(1, count)
        let rows = records.noteSummaryRows(first: count)
        let (stream, continuation) = AsyncStream.makeStream(
            of: NoteListWindow.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            for await records in rows {
                continuation.yield(NoteListWindow(first: count, of: records.map(Self.summary)))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Up to `limit` summaries right after `last` in `sort`'s order (from the start when nil):
    /// one page of the whole list, read by that order's index, for reading it a page at a time
    /// (`quire ls`, piped or sorted).
    /// - Throws: `SQLiteError` when the database cannot be read.
    public func summaryPage(sortedBy sort: NoteListSort = .updated, after last: NoteSummary?, limit: Int)
        async throws -> [NoteSummary]
    {
        try await records.noteSummaryRows(
            sortedBy: sort, after: last.map(NoteListPosition.init(after:)), limit: limit
        ).map(Self.summary)
    }

    /// One live note with its whole body, read directly (no list), or nil.
    public func note(id: NoteID) async throws -> Note? {
        try await records.noteRow(id: id).map(Self.note)
    }

    /// The live conflict copies of note `id`, newest first, whole: read by the conflict index,
    /// not from the list.
    public func conflictCopies(of id: NoteID) async throws -> [Note] {
        try await records.conflictCopyRows(of: id).map(Self.note)
    }

    /// Saves the note and its pending change, all or none. Throws only if the disk write fails.
    ///
    /// Not cancelled by the caller: the write runs in its own task, so a cancelled caller (a
    /// screen closing mid-save) still gets the text stored. A note that changed since `editedFrom`
    /// is merged with the change, or keeps it and gets this text as a linked conflict copy.
    public func save(id: NoteID, title: String, body: String, editedFrom: NoteText?) async throws {
        let records = records
        try await Task {
            try await records.saveNote(id: id, title: title, body: body, editedFrom: editedFrom)
        }.value
    }

    /// Tombstones the note and queues its delete, all or none; unknown ids change nothing. Not
    /// cancelled by the caller, like `save`.
    public func delete(_ id: NoteID) async throws {
        let records = records
        try await Task { try await records.deleteNote(id: id) }.value
    }

    /// A row as a `Note`: refused wins over pending (the user must act), pending over conflict.
    static func note(_ record: NoteRecord) -> Note {
        Note(
            id: record.id, title: record.title, body: record.body, updatedAt: record.updatedAt,
            sync: syncState(record), conflictOf: record.conflictOf, syncIssue: record.syncIssue)
    }

    /// A summary row (its body is the preview) as a `NoteSummary`.
    static func summary(_ record: NoteRecord) -> NoteSummary {
        NoteSummary(
            id: record.id, title: record.title, preview: record.body, updatedAt: record.updatedAt,
            sync: syncState(record), conflictOf: record.conflictOf, syncIssue: record.syncIssue)
    }

    /// Refused wins over pending (the user must act), pending over conflict.
    static func syncState(_ record: NoteRecord) -> NoteSyncState {
        if record.refused { return .refused }
        if record.pendingCount > 0 { return .pending(changes: record.pendingCount) }
        if record.inConflict { return .conflict }
        return .synced
    }
}
