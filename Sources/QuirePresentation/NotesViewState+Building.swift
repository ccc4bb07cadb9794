import Foundation
import QuireDomain

extension NotesViewState {
    /// Combines what the view model knows into the view state. Pure: same input, same state.
    ///
    /// - Parameters:
    ///   - rows: the rows of the latest list, or nil before the first list arrived.
    ///   - status: the latest sync status, or nil before the first one arrived.
    ///   - syncConfigured: false when this device has no server: then an empty list is simply
    ///     "no notes", since no sync will ever bring any.
    ///   - openNoteInConflict: the open note is a conflict copy or has one, as read by id; the
    ///     summaries say so too when the copy is among them.
    static func build(
        rows: [NoteRow]?, hasMoreRows: Bool = false, status: SyncStatus?, syncConfigured: Bool, editor: EditorState?,
        writeFailure: String?, readProblem: String? = nil, formatter: NotesDateFormatter,
        summaries: [NoteSummary]? = nil, openNoteInConflict: Bool = false
    ) -> NotesViewState {
        let status = status ?? SyncStatus()
        return NotesViewState(
            rows: rows ?? [],
            hasMoreRows: hasMoreRows,
            empty: rows.flatMap {
                emptyState(rows: $0, status: status, syncConfigured: syncConfigured)
            },
            isSyncing: syncConfigured && status.isSyncing,
            syncProblem: syncConfigured ? syncProblem(status, formatter: formatter) : nil,
            editor: editor,
            pendingCount: status.pendingCount,
            conflictCount: status.conflictCount,
            statusLabel: statusLabel(status, syncConfigured: syncConfigured),
            writeFailure: writeFailure,
            readProblem: readProblem,
            openNoteInConflict: editor.map {
                openNoteInConflict || isInConflict($0.id, summaries: summaries ?? [])
            } ?? false)
    }

    /// `id` is a conflict copy, or the original of a live one.
    static func isInConflict(_ id: NoteID, summaries: [NoteSummary]) -> Bool {
        summaries.contains { $0.conflictOf == id || ($0.id == id && ($0.conflictOf != nil || $0.sync == .conflict)) }
    }

    /// "No notes" only when that is known: after a sync succeeded, or with no server at all.
    static func emptyState(rows: [NoteRow], status: SyncStatus, syncConfigured: Bool) -> EmptyState? {
        guard rows.isEmpty else { return nil }
        if !syncConfigured || status.lastSyncedAt != nil { return .noNotes }
        if status.lastRunFailed && !status.isSyncing {
            return .firstSyncFailed(message: status.lastError ?? "The sync failed.")
        }
        return .firstSyncRunning
    }

    /// "Couldn't sync · last synced 10:42", or "Couldn't sync yet"; nil when the last run worked.
    static func syncProblem(_ status: SyncStatus, formatter: NotesDateFormatter) -> String? {
        guard status.lastRunFailed else { return nil }
        guard let lastSyncedAt = status.lastSyncedAt else { return "Couldn't sync yet" }
        return "Couldn't sync · last synced \(formatter.syncTime(lastSyncedAt))"
    }

    /// Seed 004's label. Conflicts come first: they wait for the user, whatever sync is doing.
    /// The status does not say whether the device is offline, so a failed run reads
    /// "Couldn't sync" rather than guessing "Offline".
    static func statusLabel(_ status: SyncStatus, syncConfigured: Bool) -> String {
        SyncStatusLabel.text(for: status, syncConfigured: syncConfigured)
    }
}
