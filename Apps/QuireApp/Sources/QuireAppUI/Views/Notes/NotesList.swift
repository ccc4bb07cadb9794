import QuireDomain
import QuirePresentation
import SwiftUI

/// The list of notes: the rows that stay when a sync fails, the line that says so above them, the
/// empty states, swipe to delete and pull to refresh.
struct NotesList: View {
    let model: NotesViewModel
    @Binding var selection: NoteID?
    let refresh: @MainActor @Sendable () async -> Void

    private var state: NotesViewState { model.viewState }

    var body: some View {
        List(state.rows, selection: $selection) { row in
            NoteRowView(row: row)
                .swipeActions {
                    Button(role: .destructive) {
                        model.delete(row.id)
                    } label: {
                        Label("Delete", systemImage: "trash")
                    }
                }
                .contextMenu {
                    Button(role: .destructive) {
                        model.delete(row.id)
                    } label: {
                        Label("Delete", systemImage: "trash")
                    }
                }
        }
        .refreshable { [refresh] in await refresh() }
        .safeAreaInset(edge: .top) { ProblemLines(lines: [state.syncProblem, state.readProblem, state.writeFailure]) }
        .overlay {
            if let empty = state.empty {
                EmptyStateView(title: empty.headline, systemImage: "note.text", detail: detail(of: empty))
            }
        }
    }

    private func detail(of empty: EmptyState) -> String? {
        if case .firstSyncFailed(let message) = empty { return message }
        return nil
    }
}
