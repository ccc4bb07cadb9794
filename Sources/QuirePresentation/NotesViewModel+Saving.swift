import Foundation
import QuireDomain

// MARK: - Saving

extension NotesViewModel {
    func scheduleSave() {
        pendingSave?.cancel()
        let sleep = debounceDeadline()
        pendingSave = Task {
            do { try await sleep() } catch { return }
            // Cancellation and this check both run on the main actor: a cancelled wait never saves.
            guard !Task.isCancelled else { return }
            self.pendingSave = nil
            self.saveDraft()
        }
    }

    /// The deadline is fixed now, at the keystroke, not when the waiting task first runs.
    nonisolated static func sleepUntil<C: Clock<Duration>>(
        _ clock: C, after duration: Duration
    ) -> @Sendable () async throws -> Void {
        let deadline = clock.now.advanced(by: duration)
        return { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    func cancelPendingSave() {
        pendingSave?.cancel()
        pendingSave = nil
    }

    /// Hands the draft to the repository if it has anything to write. If another device changed
    /// the note meanwhile, its text is merged in first when the two combine cleanly
    /// (`ConflictPolicy`); on a real clash the draft stays as it is and is saved as the note's
    /// text, marked `changedElsewhere`. The view model never makes a note of its own: conflict
    /// copies are the sync engine's alone, made through the database's settlement. Once a note
    /// the server refused is saved, asks `sync` for a run.
    func saveDraft() {
        cancelPendingSave()
        guard var draft, draft.needsSave else { return }
        if let remote = draft.remote {
            draft.remote = nil
            let resolution = policy.resolve(
                base: draft.base, local: .edited(draft.text), server: .edited(remote))
            switch resolution {
            case .alreadyEqual:
                draft.text = remote
                draft.base = remote
                draft.isDirty = false
                self.draft = draft
                publish()
                return
            case .merged(let merged):
                draft.text = merged
            case .keepBoth:
                draft.changedElsewhere = true
            case .recreate, .keepServer, .bothDeleted:
                break  // Not answers to two edits.
            }
        }
        let id = draft.id
        let text = draft.text
        let previousBase = draft.base
        // Saving a refused note replaces its refused change; no new change wakes the controller.
        let wakeSync = openSummary?.id == id && openSummary?.sync == .refused ? sync : nil
        draft.base = text
        draft.isDirty = false
        draft.deletedElsewhere = false
        draft.saveFailed = false
        draft.echoes.append(text)
        self.draft = draft
        publish()
        enqueueWrite { [notesRepository] in
            do {
                // The text the draft started from: if the note moved on under it, the database
                // merges, or keeps both with a linked copy (the one place copies are made).
                try await notesRepository.save(
                    id: id, title: text.title, body: text.body, editedFrom: previousBase)
                self.writeSucceeded()
            } catch {
                self.saveFailed(id: id, text: text, previousBase: previousBase, error: error)
                return
            }
            await wakeSync?.requestSync()
        }
    }

    /// Runs `write` after every write queued before it, so writes land in the order they were made.
    func enqueueWrite(_ write: @escaping @MainActor @Sendable () async -> Void) {
        let previous = lastWrite
        lastWrite = Task {
            await previous?.value
            await write()
        }
    }

    func writeSucceeded() {
        guard writeFailure != nil else { return }
        writeFailure = nil
        publish()
    }

    func writeFailed(_ message: String) {
        writeFailure = message
        publish()
    }

    /// The draft, if still open, becomes dirty again so the next save retries.
    private func saveFailed(id: NoteID, text: NoteText, previousBase: NoteText, error: any Error) {
        if var draft, draft.id == id {
            if let echo = draft.echoes.firstIndex(of: text) { draft.echoes.remove(at: echo) }
            if draft.base == text {
                draft.base = previousBase
                draft.isDirty = draft.text != previousBase
            }
            draft.saveFailed = true
            self.draft = draft
        }
        writeFailed("Couldn't save the note: \(error)")
    }
}
