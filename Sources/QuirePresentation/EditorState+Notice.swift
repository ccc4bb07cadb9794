// MARK: - What happened to the open note

extension EditorState {
    /// The line the editor shows above the text when the note changed under it or its save
    /// failed; nil when there is nothing to say.
    ///
    /// In order: a failed save (the text is at risk until it saves), a delete elsewhere, a clash
    /// (the draft was kept), another device's change still to merge.
    public var notice: String? {
        if saveFailed { return "Couldn't save this note. It is kept here and saved again when you type." }
        if deletedElsewhere { return "Deleted on another device. Your text here is kept: it comes back when saved." }
        if changedElsewhere {
            return
                "Another device changed this note at the same time. Your text is kept here; theirs is in the original."
        }
        if remoteChangePending { return "Changed on another device: merged in when you stop typing." }
        return nil
    }
}
