import QuireDomain
import QuirePresentation
import SwiftUI

/// Seed 004 step 07: the deleted notes that can come back, most recently deleted first; restoring
/// one brings it back here and, once synced, on the other devices. Read when the sheet opens; it
/// decides nothing.
struct TrashView: View {
    @State private var model: TrashViewModel
    @Environment(\.dismiss) private var dismiss

    init(model: TrashViewModel) {
        _model = State(initialValue: model)
    }

    private var state: TrashState { model.viewState }

    var body: some View {
        NavigationStack {
            List(state.rows) { row in
                HStack {
                    TrashRowView(row: row)
                    Spacer()
                    Button("Restore") { restore(row.id) }
                        .buttonStyle(.bordered)
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [state.notice, state.message, state.problem]) }
            .overlay {
                if let empty = state.empty {
                    EmptyStateView(title: empty, systemImage: "trash")
                } else if state.isLoading && !state.hasLoaded {
                    ProgressView()
                }
            }
            .refreshable { [model] in await model.load() }
            .navigationTitle("Trash")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
    }

    private func restore(_ id: NoteID) {
        Task { [model] in await model.restore(id) }
    }
}
