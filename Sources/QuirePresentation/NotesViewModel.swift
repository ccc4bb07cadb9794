import Foundation
import Observation
import QuireDomain

/// The notes screen's brain (seed 000 card 2): combines the note summaries and sync-status streams
/// into one view state, and owns the editor's draft until it is saved.
///
/// It watches, it never fetches a list: the list is a window of the summaries stream (titles and
/// previews, no whole bodies): the first `pageSize` notes, and `pageSize` more each time the
/// screen asks (``showMore()``), so opening the list reads a screenful whatever the number of
/// notes (seed 000: "a lazy list"). Only the note open in the editor is read whole, by id, when it is selected
/// and again whenever its summary changes. The draft is saved `debounce` after typing stops, on
/// leaving the note (`select`, `create`, `deselect`, `onDisappear`) and on `flush()`; the stored
/// note never overwrites it. Writes reach the repository one at a time, in the order they were
/// made, so a later save of a note never lands before an earlier one.
///
/// Uses nothing newer than iOS 17 / macOS 14 (`@Observable`, no `Mutex`, no `Observations`).
@MainActor
@Observable
public final class NotesViewModel {
    /// Everything the screen shows. Changes only when something visible changed.
    public internal(set) var viewState = NotesViewState()

    let notesRepository: any NotesRepository
    let statusRepository: any SyncStatusRepository
    let sync: (any SyncRequesting)?
    /// Fixes a deadline `debounce` from now on the injected clock; the returned closure waits for it.
    let debounceDeadline: @Sendable () -> @Sendable () async throws -> Void
    /// Waits on the injected clock (the pause before subscribing again to an ended stream).
    let sleep: @Sendable (Duration) async throws -> Void
    let syncConfigured: Bool
    let formatter: NotesDateFormatter
    let policy = ConflictPolicy()

    // MARK: The list
    /// How many rows the list reads at first, and how many more each ``showMore()`` adds.
    let pageSize: Int
    /// How many rows the list's window holds now.
    @ObservationIgnored var listLimit: Int
    /// More live notes follow the window's last row.
    @ObservationIgnored var hasMoreRows = false
    /// The subscription to the current window; ended to subscribe again with a larger one.
    @ObservationIgnored var listRun: Task<Void, Never>?
    @ObservationIgnored var summaries: [NoteSummary]?
    @ObservationIgnored var rows: [NoteRow]?
    /// Each note's row as last formatted, reused while its summary is unchanged: formatting 10,000
    /// dates on every save would stall the main actor. Valid for `rowCacheDay` only.
    @ObservationIgnored var rowCache: [NoteID: (summary: NoteSummary, row: NoteRow)] = [:]
    @ObservationIgnored var rowCacheDay: Date?
    @ObservationIgnored var status: SyncStatus?
    @ObservationIgnored var watching: Task<Void, Never>?
    /// Set while the list's stream is down (it ended: a read failed), until it answers again.
    @ObservationIgnored var listFailure: String?
    /// Set while the status stream is down, until it answers again.
    @ObservationIgnored var statusFailure: String?

    // MARK: The open note
    @ObservationIgnored var draft: Draft?
    /// Selected, and being read whole; the editor opens when the read answers.
    @ObservationIgnored var opening: NoteID?
    /// The open (or opening) note's summary in the latest list: a different one means it changed.
    @ObservationIgnored var openSummary: NoteSummary?
    @ObservationIgnored var readWanted = false
    @ObservationIgnored var reader: Task<Void, Never>?
    /// Bumped whenever a read in flight stops being worth applying (another note selected, the
    /// note gone from a newer list).
    @ObservationIgnored var readGeneration = 0
    @ObservationIgnored var openFailure: String?
    /// The open note is a conflict copy or has one, as last read by id (the copy may be outside
    /// the list's window).
    @ObservationIgnored var openInConflict = false

    // MARK: Writing
    @ObservationIgnored var writeFailure: String?
    @ObservationIgnored var pendingSave: Task<Void, Never>?
    @ObservationIgnored var lastWrite: Task<Void, Never>?

    /// - Parameters:
    ///   - sync: asked for a sync run when a note the server refused is saved again; nil when this
    ///     device does not sync.
    ///   - clock: measures the debounce; tests pass a manual clock.
    ///   - debounce: how long after the last keystroke the draft is saved.
    ///   - syncConfigured: false when this device has no server: an empty list is then "no notes"
    ///     at once, and no sync problem is ever shown.
    ///   - dateFormatter: formats row dates and the last sync time.
    ///   - pageSize: the rows read when the list opens (a screenful or two), and added by each
    ///     ``showMore()``.
    public init(
        notes: any NotesRepository, status: any SyncStatusRepository,
        sync: (any SyncRequesting)? = nil, clock: some Clock<Duration> = ContinuousClock(),
        debounce: Duration = .milliseconds(500),
        syncConfigured: Bool = true, dateFormatter: NotesDateFormatter = NotesDateFormatter(),
        pageSize: Int = 100
    ) {
        self.pageSize = max(1, pageSize)
        listLimit = self.pageSize
        notesRepository = notes
        statusRepository = status
        self.sync = sync
        debounceDeadline = { Self.sleepUntil(clock, after: debounce) }
        sleep = { try await clock.sleep(for: $0) }
        self.syncConfigured = syncConfigured
        formatter = dateFormatter
        publish()
    }

    // MARK: - Actions

    /// Opens the note in the editor once it is read whole, saving the current draft first if it
    /// has unsaved text. The editor closes at once and opens on the read's answer; when several
    /// notes are selected quickly, only the last one opens. An id not in the latest list changes
    /// nothing.
    public func select(_ id: NoteID) {
        guard draft?.id != id, opening != id,
            let summary = summaries?.first(where: { $0.id == id })
        else { return }
        saveDraft()
        draft = nil
        opening = id
        openSummary = summary
        readGeneration += 1
        publish()
        requestRead()
    }

    /// Reads `pageSize` more rows into the list, when more follow (the screen calls it as the
    /// last rows come into view). The rows shown stay until the larger window answers; calling it
    /// again before then asks for one more page each time.
    public func showMore() {
        guard hasMoreRows else { return }
        listLimit += pageSize
        listRun?.cancel()
    }

    /// Closes the editor, saving its draft first if it has unsaved text.
    public func deselect() {
        saveDraft()
        closeEditor()
        publish()
    }

    /// Opens an empty new note, after saving the current draft. The new note is saved only once
    /// something is typed into it; left empty, it disappears.
    public func create() {
        saveDraft()
        closeEditor()
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
        if draft?.id == id || opening == id {
            cancelPendingSave()
            closeEditor()
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

    /// Forgets the open note; a read in flight for it is dropped when it answers.
    func closeEditor() {
        draft = nil
        opening = nil
        openSummary = nil
        openInConflict = false
        readGeneration += 1
    }

    // MARK: - Publishing

    func publish() {
        let next = NotesViewState.build(
            rows: rows, hasMoreRows: hasMoreRows, status: status, syncConfigured: syncConfigured,
            editor: draft?.editorState, writeFailure: writeFailure,
            readProblem: listFailure ?? statusFailure ?? openFailure,
            formatter: formatter, summaries: summaries, openNoteInConflict: openInConflict)
        if next != viewState { viewState = next }
    }
}
