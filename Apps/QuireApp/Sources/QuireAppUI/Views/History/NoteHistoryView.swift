import QuirePresentation
import SwiftUI

/// Seed 004 step 07: a note's earlier texts, newest first, each with its time, device, size and
/// first line; one opens in full and can be made the note's text again (an ordinary synced
/// change). Read when the sheet opens; it decides nothing.
struct NoteHistoryView: View {
    @State private var model: NoteHistoryViewModel
    @Environment(\.dismiss) private var dismiss

    init(model: NoteHistoryViewModel) {
        _model = State(initialValue: model)
    }

    private var state: NoteHistoryState { model.viewState }

    var body: some View {
        NavigationStack {
            List {
                if let preview = state.preview {
                    Section("Version \(preview.reference)") {
                        Text(preview.title).font(.headline)
                        Text(preview.body).textSelection(.enabled)
                        if state.rows.first(where: { $0.id == preview.reference })?.canRestore == true {
                            Button("Restore this version") { restore(preview.reference) }
                        }
                    }
                }
                Section {
                    ForEach(state.rows) { row in
                        Button {
                            model.select(row.id)
                        } label: {
                            NoteHistoryRowView(row: row)
                        }
                        .swipeActions {
                            if row.canRestore {
                                Button("Restore") { restore(row.id) }
                            }
                        }
                    }
                }
            }
            .safeAreaInset(edge: .top) { ProblemLines(lines: [state.notice, state.message, state.problem]) }
            .overlay {
                if let empty = state.empty {
                    EmptyStateView(title: empty, systemImage: "clock.arrow.circlepath")
                } else if state.isLoading && !state.hasLoaded {
                    ProgressView()
                }
            }
            .refreshable { [model] in await model.load() }
            .navigationTitle("History")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
        .task { [model] in await model.load() }
    }

    private func restore(_ reference: String) {
        Task { [model] in await model.restore(reference) }
    }
}
