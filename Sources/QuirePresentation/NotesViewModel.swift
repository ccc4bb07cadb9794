import Foundation
import Observation
import QuireDomain

/// The notes screen's brain (seed 000 card 2): combines the notes and sync-status streams into one
/// view state, and owns the editor's draft until it is saved.
///
/// It watches, it never fetches: each stream replays its value, then every change, whether it came
/// from this screen or from sync. The draft is saved `debounce` after typing stops, on leaving the
/// note (`select`, `create`, `deselect`, `onDisappear`) and on `flush()`; an incoming list never
/// overwrites it. Writes reach the repository one at a time, in the order they were made, so a
/// later save of a note never lands before an earlier one.
///
/// Uses nothing newer than iOS 17 / macOS 14 (`@Observable`, no `Mutex`, no `Observations`).
@MainActor
@Observable
public final class NotesViewModel {
    /// Everything the screen shows. Changes only when something visible changed.
    public private(set) var viewState = NotesViewState()

    private let notesRepository: any NotesRepository
    private let statusRepository: any SyncStatusRepository
    /// Fixes a deadline `debounce` from now on the injected clock; the returned closure waits for it.
    private let debounceDeadline: @Sendable () -> @Sendable () async throws -> Void
    private let syncConfigured: Bool
    private let formatter: NotesDateFormatter
    private let policy = ConflictPolicy()

    @ObservationIgnored private var notes: [Note]?
    @ObservationIgnored private var rows: [NoteRow]?
    /// Each note's row as last formatted, reused while the note is unchanged: formatting 10,000
    /// dates on every save would stall the main actor. Valid for `rowCacheDay` only.
    @ObservationIgnored private var rowCache: [NoteID: (note: Note, row: NoteRow)] = [:]
    @ObservationIgnored private var rowCacheDay: Date?
    @ObservationIgnored private var status: SyncStatus?
    @ObservationIgnored private var draft: Draft?
    @ObservationIgnored private var writeFailure: String?
    @ObservationIgnored private var pendingSave: Task<Void, Never>?
    @ObservationIgnored private var lastWrite: Task<Void, Never>?
    @ObservationIgnored private var watching: Task<Void, Never>?

    /// - Parameters:
    ///   - clock: measures the debounce; tests pass a manual clock.
    ///   - debounce: how long after the last keystroke the draft is saved.
    ///   - syncConfigured: false when this device has no server: an empty list is then "no notes"
    ///     at once, and no sync problem is ever shown.
    ///   - dateFormatter: formats row dates and the last sync time.
    public init(
        notes: any NotesRepository, status: any SyncStatusRepository,
        clock: some Clock<Duration> = ContinuousClock(), debounce: Duration = .milliseconds(500),
        syncConfigured: Bool = true, dateFormatter: NotesDateFormatter = NotesDateFormatter()
    ) {
        notesRepository = notes
        statusRepository = status
        debounceDeadline = { Self.sleepUntil(clock, after: debounce) }
        self.syncConfigured = syncConfigured
        formatter = dateFormatter
        publish()
    }

    // MARK: - Watching

    /// Watches both streams and keeps `viewState` current. Returns when the caller's task is
    /// cancelled (SwiftUI's `.task`) or `onDisappear()` is called. Calling it again while watching
    /// stops the earlier watch.
    public func onAppear() async {
        watching?.cancel()
        let watch = Task { await self.watch() }
        watching = watch
        await withTaskCancellationHandler {
            await watch.value
        } onCancel: {
            watch.cancel()
        }
    }

    /// Stops watching and saves a dirty draft: leaving the screen is leaving the note.
    public func onDisappear() {
        watching?.cancel()
        watching = nil
        saveDraft()
    }

    private func watch() async {
        let notesStream = notesRepository.notes()
        let statusStream = statusRepository.status()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await list in notesStream { await self.receive(list) }
            }
            group.addTask {
                for await status in statusStream { await self.receive(status) }
            }
        }
    }

    private func receive(_ list: [Note]) {
        notes = list
        rows = makeRows(list)
        if let draft {
            let next = draft.reconciled(with: list)
            if next == nil { cancelPendingSave() }
            self.draft = next
        }
        publish()
    }

    private func makeRows(_ list: [Note]) -> [NoteRow] {
        let today = formatter.today()
        let cache = rowCacheDay == today ? rowCache : [:]
        var next: [NoteID: (note: Note, row: NoteRow)] = [:]
        next.reserveCapacity(list.count)
        let rows = list.map { note in
            let row =
                cache[note.id].flatMap { $0.note == note ? $0.row : nil }
                ?? NoteRow(note, formatter: formatter)
            next[note.id] = (note, row)
            return row
        }
        rowCache = next
        rowCacheDay = today
        return rows
    }

    private func receive(_ status: SyncStatus) {
        self.status = status
        publish()
    }

    // MARK: - Actions

    /// Opens the note in the editor, saving the current draft first if it has unsaved text.
    /// An id not in the latest list changes nothing.
    public func select(_ id: NoteID) {
        guard draft?.id != id, let note = notes?.first(where: { $0.id == id }) else { return }
        saveDraft()
        draft = Draft(note)
        publish()
    }

    /// Closes the editor, saving its draft first if it has unsaved text.
    public func deselect() {
        saveDraft()
        draft = nil
        publish()
    }

    /// Opens an empty new note, after saving the current draft. The new note is saved only once
    /// something is typed into it; left empty, it disappears.
    public func create() {
        saveDraft()
        draft = Draft(newNoteWith: NoteText(title: "", body: ""))
        publish()
    }

    /// Replaces the draft's text at once, and saves it `debounce` after the last edit (each edit
    /// restarts the wait). Does nothing when no note is open.
    public func edit(title: String, body: String) {
        guard var draft else { return }
        draft.text = NoteText(title: title, body: body)
        draft.isDirty = draft.text != draft.base
        self.draft = draft
        if draft.needsSave { scheduleSave() } else { cancelPendingSave() }
        publish()
    }

    /// Deletes the note through the repository, after any write queued before it. Closes the
    /// editor, unsaved text included, if it held that note.
    public func delete(_ id: NoteID) {
        if draft?.id == id {
            cancelPendingSave()
            draft = nil
            publish()
        }
        enqueueWrite { [notesRepository] in
            do {
                try await notesRepository.delete(id)
                self.writeSucceeded()
            } catch {
                self.writeFailed("Couldn't delete the note: \(error)")
            }
        }
    }

    /// Saves a dirty draft now and returns once every queued write has finished: call it when the
    /// app goes to the background. Cancelling the caller neither cancels nor shortens the writes.
    public func flush() async {
        saveDraft()
        await lastWrite?.value
    }
}

// MARK: - Saving

extension NotesViewModel {
    private func scheduleSave() {
        pendingSave?.cancel()
        let sleep = debounceDeadline()
        pendingSave = Task {
            do { try await sleep() } catch { return }
            // Cancellation and this check both run on the main actor: a cancelled wait never saves.
            guard !Task.isCancelled else { return }
            self.pendingSave = nil
            self.saveDraft()
        }
    }

    /// The deadline is fixed now, at the keystroke, not when the waiting task first runs.
    private nonisolated static func sleepUntil<C: Clock<Duration>>(
        _ clock: C, after duration: Duration
    ) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: duration)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    private func cancelPendingSave() {
        pendingSave?.cancel()
        pendingSave = nil
    }

    /// Hands the draft to the repository if it has anything to write. If another device changed
    /// the note meanwhile, its text is merged in first when the two combine cleanly
    /// (`ConflictPolicy`); on a real clash the draft stays as it is and is saved as the note's
    /// text, marked `changedElsewhere`. The view model never makes a note of its own: conflict
    /// copies are the sync engine's alone, made through the database's settlement.
    private func saveDraft() {
        cancelPendingSave()
        guard var draft, draft.needsSave else { return }
        if let remote = draft.remote {
            draft.remote = nil
            let resolution = policy.resolve(
                base: draft.base, local: .edited(draft.text), server: .edited(remote))
            switch resolution {
            case .alreadyEqual:
                draft.text = remote
                draft.base = remote
                draft.isDirty = false
                self.draft = draft
                publish()
                return
            case .merged(let merged):
                draft.text = merged
            case .keepBoth:
                draft.changedElsewhere = true
            case .recreate, .keepServer, .bothDeleted:
                break  // Not answers to two edits.
            }
        }
        let id = draft.id
        let text = draft.text
        let previousBase = draft.base
        draft.base = text
        draft.isDirty = false
        draft.deletedElsewhere = false
        draft.saveFailed = false
        draft.echoes.append(text)
        self.draft = draft
        publish()
        enqueueWrite { [notesRepository] in
            do {
                try await notesRepository.save(id: id, title: text.title, body: text.body)
                self.writeSucceeded()
            } catch {
                self.saveFailed(id: id, text: text, previousBase: previousBase, error: error)
            }
        }
    }

    /// Runs `write` after every write queued before it, so writes land in the order they were made.
    private func enqueueWrite(_ write: @escaping @MainActor @Sendable () async -> Void) {
        let previous = lastWrite
        lastWrite = Task {
            await previous?.value
            await write()
        }
    }

    private func writeSucceeded() {
        guard writeFailure != nil else { return }
        writeFailure = nil
        publish()
    }

    private func writeFailed(_ message: String) {
        writeFailure = message
        publish()
    }

    /// The draft, if still open, becomes dirty again so the next save retries.
    private func saveFailed(id: NoteID, text: NoteText, previousBase: NoteText, error: any Error) {
        if var draft, draft.id == id {
            if let echo = draft.echoes.firstIndex(of: text) { draft.echoes.remove(at: echo) }
            if draft.base == text {
                draft.base = previousBase
                draft.isDirty = draft.text != previousBase
            }
            draft.saveFailed = true
            self.draft = draft
        }
        writeFailed("Couldn't save the note: \(error)")
    }

    // MARK: - Publishing

    private func publish() {
        let next = NotesViewState.build(
            rows: rows, status: status, syncConfigured: syncConfigured,
            editor: draft?.editorState, writeFailure: writeFailure, formatter: formatter)
        if next != viewState { viewState = next }
    }
}
