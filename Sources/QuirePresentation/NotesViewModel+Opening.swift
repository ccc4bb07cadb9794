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
            guard generation == readGeneration else { continue }
            took(result, for: id)
        }
        reader = nil
    }

    private func took(_ result: Result<Note?, any Error>, for id: NoteID) {
        switch result {
        case .failure(let error):
            openFailure = "Couldn't open the note: \(error)"
            if opening == id { opening = nil }
        case .success(let note):
            openFailure = nil
            if opening == id {
                opening = nil
                draft = note.map(Draft.init)
            } else if draft?.id == id {
                reconcileDraft(with: note)
            }
        }
        publish()
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
