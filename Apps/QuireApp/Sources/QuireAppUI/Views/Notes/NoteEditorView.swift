import QuirePresentation
import SwiftUI

/// The editor, bound to the view model's draft: each keystroke goes to `edit(title:body:)`, which
/// owns the debounce and the rule that an incoming list never overwrites the draft. The fields
/// follow the draft when it changes underneath (a merge, a move to a conflict copy).
struct NoteEditorView: View {
    let model: NotesViewModel
    let editor: EditorState
    let inConflict: Bool
    let settle: () -> Void
    let showHistory: () -> Void

    @State private var title: String
    @State private var text: String

    init(
        model: NotesViewModel, editor: EditorState, inConflict: Bool, settle: @escaping () -> Void,
        showHistory: @escaping () -> Void
    ) {
        self.model = model
        self.editor = editor
        self.inConflict = inConflict
        self.settle = settle
        self.showHistory = showHistory
        _title = State(initialValue: editor.title)
        _text = State(initialValue: editor.body)
    }

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            if let notice = editor.notice {
                Text(notice).font(.callout).foregroundStyle(.secondary)
            }
            TextField("Title", text: $title)
                .font(.title2.weight(.semibold))
            TextEditor(text: $text)
        }
        .padding()
        .onChange(of: title) { _, newTitle in
            if newTitle != editor.title { model.edit(title: newTitle, body: text) }
        }
        .onChange(of: text) { _, newText in
            if newText != editor.body { model.edit(title: title, body: newText) }
        }
        .onChange(of: editor.title) { _, stored in
            if title != stored { title = stored }
        }
        .onChange(of: editor.body) { _, stored in
            if text != stored { text = stored }
        }
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                if inConflict { Button("Settle conflict…", action: settle) }
            }
            ToolbarItem(placement: .secondaryAction) {
                Button(action: showHistory) {
                    Label("History", systemImage: "clock.arrow.circlepath")
                }
            }
        }
    }
}
