import Foundation
import QuireDomain

// MARK: - Reading the open note whole

extension NotesViewModel {
    /// Reads the open (or opening) note by id, now or right after the read in flight: one read at a
    /// time, so answers are applied in the order they were read.
    func requestRead() {
        readWanted = true
        guard reader == nil else { return }
        reader = Task { await self.readOpenNote() }
    }

    private func readOpenNote() async {
        while readWanted {
            readWanted = false
            guard let id = draft?.id ?? opening else { break }
            let generation = readGeneration
            let result: Result<Note?, any Error>
            do {
                result = .success(try await notesRepository.note(id: id))
            } catch {
                result = .failure(error)
            }
            var copies: [Note] = []
            if case .success(let note?) = result { copies = await liveCopies(of: note) }
            var copy: Note?
            if case .success(let note?) = result, let draft, draft.id == id, draft.isOverrun(by: note) {
                copy = copies.first { draft.isConflictCopy($0, policy: policy) }
            }
            guard generation == readGeneration else { continue }
            took(result, for: id, copy: copy, inConflict: !copies.isEmpty)
        }
        reader = nil
    }

    /// The live conflict copies that `note` takes part in (its own, or, for a copy, its
    /// original's other copies), asked of the repository by id: the list's window holds only its
    /// first rows, and a copy may sit anywhere in the list. Empty when they cannot be read now.
    private func liveCopies(of note: Note) async -> [Note] {
        let original = note.conflictOf ?? note.id
        do {
            return try await notesRepository.conflictCopies(of: original).filter { $0.id != note.id }
        } catch {
            return []  // Unreadable now: the draft stays on its note, which is what it did before.
        }
    }

    /// Applies a read of note `id`; `inConflict`: it has live conflict copies besides itself.
    private func took(
        _ result: Result<Note?, any Error>, for id: NoteID, copy: Note? = nil, inConflict: Bool = false
    ) {
        switch result {
        case .failure(let error):
            openFailure = "Couldn't open the note: \(error)"
            if opening == id { opening = nil }
        case .success(let note):
            openFailure = nil
            if opening == id || draft?.id == id {
                openInConflict = inConflict || note.map { $0.conflictOf != nil || $0.sync == .conflict } ?? false
            }
            if opening == id {
                opening = nil
                draft = note.map(Draft.init)
            } else if let draft, draft.id == id {
                if let note, let copy, draft.isOverrun(by: note),
                    draft.isConflictCopy(copy, policy: policy)
                {
                    follow(draft, to: copy)
                } else {
                    reconcileDraft(with: note)
                }
            }
        }
        publish()
    }

    /// The engine settled a clash on the draft's note and keeps this device's saved text in
    /// `copy`: the editor moves there with the typing since, which is saved there.
    private func follow(_ draft: Draft, to copy: Note) {
        self.draft = draft.moved(to: copy)
        openInConflict = true
        openSummary = summaries?.first { $0.id == copy.id }
        if self.draft?.isDirty == true { scheduleSave() } else { cancelPendingSave() }
    }

    /// Takes the stored note (nil: gone) into the draft; closes the editor when the note was
    /// deleted elsewhere and nothing typed here is unsaved.
    func reconcileDraft(with note: Note?) {
        guard let draft else { return }
        let next = draft.reconciled(with: note)
        if next == nil { cancelPendingSave() }
        self.draft = next
    }
}
