import QuireDomain
import QuirePresentation
import SwiftUI

/// Seed 000 card 1: the list and the editor side by side on iPad and Mac, pushed on iPhone. It
/// shows `viewModel.viewState` and reports what the person does; it decides nothing.
struct NotesView: View {
    let model: NotesViewModel
    let conflicts: any NoteConflictsRepository
    /// The history and trash sheets' repository.
    let history: any NoteHistoryRepository
    /// Why the sync could not start (a damaged stored key), from the app.
    let syncFailure: String?
    /// Pull to refresh: asks the sync controller for a run now.
    let refresh: @MainActor @Sendable () async -> Void

    @State private var selection: NoteID?
    @State private var column = NavigationSplitViewColumn.sidebar
    @State private var settling: NoteTarget?
    @State private var showingHistory: NoteTarget?
    @State private var showingTrash = false

    private var state: NotesViewState { model.viewState }

    var body: some View {
        NavigationSplitView(preferredCompactColumn: $column) {
            NotesList(model: model, selection: $selection, refresh: refresh)
                .navigationTitle("Notes")
                .toolbar {
                    ToolbarItem(placement: .primaryAction) {
                        Button {
                            model.create()
                            column = .detail
                        } label: {
                            Label("New note", systemImage: "square.and.pencil")
                        }
                    }
                    ToolbarItem(placement: .secondaryAction) {
                        Button {
                            showingTrash = true
                        } label: {
                            Label("Trash", systemImage: "trash")
                        }
                    }
                }
                .safeAreaInset(edge: .bottom) { SyncStatusBar(state: state, syncFailure: syncFailure) }
        } detail: {
            if let editor = state.editor {
                NoteEditorView(
                    model: model, editor: editor, inConflict: state.openNoteInConflict,
                    settle: { settling = NoteTarget(id: editor.id) },
                    showHistory: { showingHistory = NoteTarget(id: editor.id) }
                )
                .id(editor.id)
            } else {
                EmptyStateView(
                    title: "No note open", systemImage: "note.text", detail: "Pick a note, or start a new one.")
            }
        }
        .task { [model] in await model.onAppear() }
        .onDisappear { model.onDisappear() }
        .onChange(of: selection) { _, id in
            if let id {
                model.select(id)
            } else if state.editor != nil {
                model.deselect()
            }
        }
        .onChange(of: state.editor?.id) { _, id in
            // The editor moved on its own (a new note, a conflict copy): the list follows. A
            // closing editor (nil) leaves the selection alone: the next note may be opening.
            if let id, selection != id { selection = id }
        }
        .sheet(item: $settling) { target in
            ConflictView(model: ConflictViewModel(conflicts: conflicts, note: target.id))
        }
        .sheet(item: $showingHistory) { target in
            NoteHistoryView(
                model: NoteHistoryViewModel(history: history, note: target.id, dateFormatter: NotesDateFormatter()))
        }
        .sheet(isPresented: $showingTrash) {
            TrashView(model: TrashViewModel(history: history, dateFormatter: NotesDateFormatter()))
        }
    }
}

/// The note a sheet is about: the conflict it settles, the history it lists.
struct NoteTarget: Identifiable {
    let id: NoteID
}
