import Foundation
import Observation
import QuireDomain

/// The history screen's brain: a note's texts newest first, read when the screen asks, and a
/// restore of one as an ordinary synced change (the text it replaces stays in the history).
@MainActor
@Observable
public final class NoteHistoryViewModel {
    public private(set) var viewState = NoteHistoryState()

    let history: any NoteHistoryRepository
    let noteID: NoteID
    let dateFormatter: NotesDateFormatter
    @ObservationIgnored private var versions: [NoteHistoryVersion] = []

    public init(history: any NoteHistoryRepository, note: NoteID, dateFormatter: NotesDateFormatter) {
        self.history = history
        noteID = note
        self.dateFormatter = dateFormatter
    }

    /// Reads the history (again). A failed read keeps what was shown and says why.
    public func load() async {
        viewState.isLoading = true
        defer { viewState.isLoading = false }
        do {
            let read = try await history.history(of: noteID)
            versions = Self.newestFirst(read.versions)
            viewState.rows = versions.map { NoteHistoryRow($0, formatter: dateFormatter) }
            viewState.notice = read.problem?.historyNotice
            viewState.empty = versions.isEmpty ? "No earlier texts of this note yet." : nil
            viewState.problem = nil
            viewState.hasLoaded = true
            if let shown = viewState.preview?.reference { select(shown) }
        } catch {
            viewState.problem = "Couldn't read the history: \(error)"
        }
    }

    /// Shows the whole text of the version `reference` names; nil hides it.
    public func select(_ reference: String?) {
        viewState.preview = versions.first { $0.reference == reference }.map {
            NoteHistoryPreview(reference: $0.reference, title: $0.text.title, body: $0.text.body)
        }
    }

    /// Makes the version `reference` names the note's text, then reads the history again. The
    /// current version is left as it is.
    public func restore(_ reference: String) async {
        guard let version = versions.first(where: { $0.reference == reference }), !version.isCurrent else { return }
        let name = version.reference.hasPrefix("L") ? "the text kept on this device" : "version \(reference)"
        viewState.message = nil
        do {
            guard try await history.restore(noteID, version: reference) else {
                viewState.message = "The note already has that text; nothing to restore."
                return
            }
            viewState.preview = nil
            await load()
            viewState.message =
                "Restored \(name) as the note's text. It syncs like any edit; the text it replaced stays here."
        } catch {
            viewState.problem = "Couldn't restore \(name): \(error)"
        }
    }

    /// The current text first, then by time, newest first; at equal times in the given order.
    static func newestFirst(_ versions: [NoteHistoryVersion]) -> [NoteHistoryVersion] {
        versions.enumerated().sorted { lhs, rhs in
            if lhs.element.isCurrent != rhs.element.isCurrent { return lhs.element.isCurrent }
            if lhs.element.savedAt != rhs.element.savedAt { return lhs.element.savedAt > rhs.element.savedAt }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
