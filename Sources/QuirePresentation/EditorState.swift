import Foundation
import QuireDomain

/// The note open in the editor, as the editor shows it. The text is the view model's draft, which
/// may be ahead of the database.
public struct EditorState: Equatable, Sendable {
    public let id: NoteID
    public let title: String
    public let body: String
    /// Typed but not yet handed to the repository (a save is due after the debounce, or on leaving).
    public let isDirty: Bool
    /// The stored note changed on another device (or by a merge) while this draft was open. The
    /// draft was kept; at the next save the other text is merged in if the two combine cleanly,
    /// and otherwise the draft is saved as it is (`changedElsewhere`).
    public let remoteChangePending: Bool
    /// The note was deleted elsewhere while this draft had unsaved text; saving brings it back
    /// (an edit beats a delete).
    public let deletedElsewhere: Bool
    /// The last save of this draft failed; the draft stays dirty so the next save retries.
    public let saveFailed: Bool
    /// Another device changed this note while it was open here, and its text clashed with the
    /// draft: the editor kept the draft. When the sync engine had already settled the clash (the
    /// note took the other text, this device's saved text went to a linked conflict copy), the
    /// editor moved to that copy, `id` included, so the typing goes on beside the text it
    /// continues. Stays true while the editor shows this note.
    public let changedElsewhere: Bool

    public init(
        id: NoteID, title: String, body: String, isDirty: Bool = false,
        remoteChangePending: Bool = false, deletedElsewhere: Bool = false, saveFailed: Bool = false,
        changedElsewhere: Bool = false
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.isDirty = isDirty
        self.remoteChangePending = remoteChangePending
        self.deletedElsewhere = deletedElsewhere
        self.saveFailed = saveFailed
        self.changedElsewhere = changedElsewhere
    }
}
