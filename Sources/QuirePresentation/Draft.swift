import Foundation
import QuireDomain

/// The note open in the editor: the view model's until saved. The stored note, read again when it
/// changes, never overwrites text typed here; it only records what changed underneath.
struct Draft {
    var id: NoteID
    var text: NoteText
    /// The stored text this draft last agreed with (loaded, or last handed to save): the base of
    /// the merge when the stored note changed underneath.
    var base: NoteText
    /// `text` differs from what was last handed to save.
    var isDirty = false
    /// Texts handed to save whose echo has not come back in a notes list yet, oldest first. A list
    /// showing one of them is this view model's own save, not a change from elsewhere.
    var echoes: [NoteText] = []
    /// The stored text changed elsewhere since `base`; merged in at the next save.
    var remote: NoteText?
    /// The note vanished from the list while this draft had unsaved text.
    var deletedElsewhere = false
    /// Never seen in a notes list: created here, not yet saved (or the save not yet published).
    var isNew: Bool
    var saveFailed = false
    /// Another device's text clashed with this draft; the draft was kept.
    var changedElsewhere = false

    /// A draft of a stored note, clean.
    init(_ note: Note) {
        id = note.id
        text = note.text
        base = note.text
        isNew = false
    }

    /// A draft of a note that exists nowhere yet; it is saved only once something is typed.
    init(newNoteWith text: NoteText = NoteText(title: "", body: "")) {
        id = NoteID()
        self.text = text
        base = NoteText(title: "", body: "")
        isDirty = text != base
        isNew = true
    }

    /// There is something to write: typed text, or another device's text still to merge in.
    var needsSave: Bool { isDirty || remote != nil }

    var editorState: EditorState {
        EditorState(
            id: id, title: text.title, body: text.body, isDirty: isDirty,
            remoteChangePending: remote != nil || deletedElsewhere,
            deletedElsewhere: deletedElsewhere, saveFailed: saveFailed,
            changedElsewhere: changedElsewhere)
    }

    /// The stored note holds another device's text (neither this draft's base nor one of its own
    /// saves) while this draft has typing that is not saved: saving it on this note would replace
    /// that text.
    func isOverrun(by stored: Note) -> Bool {
        isDirty && stored.text != base && !echoes.contains(stored.text)
    }

    /// Whether `note` is the conflict copy the sync engine makes of text this draft saved: the
    /// policy's copy title, the saved body.
    func isConflictCopy(_ note: Note, policy: ConflictPolicy) -> Bool {
        ([base] + echoes).contains {
            note.text == NoteText(title: policy.copyTitle(for: $0.title), body: $0.body)
        }
    }

    /// This draft moved onto `copy`, the sync engine's conflict copy of text it saved: the typing
    /// since goes on there, and the note it left keeps the other device's text. A title typed
    /// here since the last save is kept; otherwise the copy's title.
    func moved(to copy: Note) -> Draft {
        var draft = Draft(copy)
        let title = text.title == base.title ? copy.title : text.title
        draft.text = NoteText(title: title, body: text.body)
        draft.isDirty = draft.text != draft.base
        draft.changedElsewhere = true
        return draft
    }

    /// Takes in the stored note as last read (nil: not in the database, or deleted). Returns nil
    /// when the draft should close: its note was deleted elsewhere and nothing typed here is
    /// unsaved.
    func reconciled(with stored: Note?) -> Draft? {
        var draft = self
        guard let stored else {
            // Not yet stored, or our own save is on its way: nothing was deleted.
            if isNew || !echoes.isEmpty { return draft }
            guard isDirty else { return nil }
            draft.deletedElsewhere = true
            return draft
        }
        draft.isNew = false
        draft.deletedElsewhere = false
        let storedText = stored.text
        if let echo = echoes.firstIndex(of: storedText) {
            draft.echoes.removeFirst(echo + 1)
        } else if storedText == base {
            draft.remote = nil
        } else if isDirty || !echoes.isEmpty {
            draft.remote = storedText
        } else {
            // Nothing typed is waiting: show the other device's text.
            draft.text = storedText
            draft.base = storedText
            draft.remote = nil
        }
        return draft
    }
}
