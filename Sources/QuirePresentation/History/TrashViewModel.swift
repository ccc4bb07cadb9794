import Foundation
import Observation
import QuireDomain

/// The trash screen's brain: the deleted notes that can come back, most recently deleted first,
/// read when the screen asks, and a restore of one as a change that syncs.
@MainActor
@Observable
public final class TrashViewModel {
    public private(set) var viewState = TrashState()

    let history: any NoteHistoryRepository
    let dateFormatter: NotesDateFormatter
    @ObservationIgnored private var notes: [TrashedNote] = []

    public init(history: any NoteHistoryRepository, dateFormatter: NotesDateFormatter) {
        self.history = history
        self.dateFormatter = dateFormatter
    }

    /// Reads the trash (again). A failed read keeps what was shown and says why.
    public func load() async {
        viewState.isLoading = true
        defer { viewState.isLoading = false }
        do {
            let trash = try await history.trash()
            notes = trash.notes.sorted { $0.deletedAt > $1.deletedAt }
            viewState.notice = trash.problem?.trashNotice
            viewState.problem = nil
            viewState.hasLoaded = true
            publishRows()
        } catch {
            viewState.problem = "Couldn't read the trash: \(error)"
        }
    }

    /// Brings the note back; it leaves the trash once saved. A failed restore keeps it and says
    /// why.
    public func restore(_ id: NoteID) async {
        guard let note = notes.first(where: { $0.id == id }) else { return }
        let title = TrashRow(note, formatter: dateFormatter).title
        viewState.message = nil
        do {
            try await history.restoreFromTrash(id)
            notes.removeAll { $0.id == id }
            publishRows()
            viewState.problem = nil
            viewState.message = "Restored “\(title)”. It comes back on your other devices when it syncs."
        } catch {
            viewState.problem = "Couldn't restore “\(title)”: \(error)"
        }
    }

    private func publishRows() {
        viewState.rows = notes.map { TrashRow($0, formatter: dateFormatter) }
        viewState.empty = notes.isEmpty ? "The trash is empty." : nil
    }
}
