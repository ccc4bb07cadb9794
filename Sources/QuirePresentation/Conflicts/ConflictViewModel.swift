import Foundation
import Observation
import QuireDomain

/// The conflict screen's brain: reads the conflict a note takes part in and settles it by the
/// person's choice. Uses nothing newer than iOS 17 / macOS 14.
@MainActor
@Observable
public final class ConflictViewModel {
    public private(set) var viewState = ConflictScreenState(isLoading: true)

    let conflicts: any NoteConflictsRepository
    let noteID: NoteID
    @ObservationIgnored private var conflict: NoteConflict?

    /// - Parameter note: a conflict copy, or a note with one.
    public init(conflicts: any NoteConflictsRepository, note: NoteID) {
        self.conflicts = conflicts
        noteID = note
    }

    /// Reads the conflict (again). A conflict no longer there (settled on another device) reads
    /// as settled; a failed read keeps what was shown and says why.
    public func load() async {
        do {
            conflict = try await conflicts.conflict(involving: noteID)
            viewState = ConflictScreenState.build(conflict)
        } catch {
            viewState = ConflictScreenState.build(conflict, problem: "Couldn't read the conflict: \(error)")
        }
    }

    /// Saves the choice for the conflict's copy; the state is settled once it is saved. A failed
    /// save keeps the screen and says why.
    public func choose(_ option: ConflictOption) async {
        guard let conflict, viewState.options.contains(option) else { return }
        do {
            try await conflicts.resolve(copy: conflict.copy.note.id, keep: option.choice)
            self.conflict = nil
            viewState = ConflictScreenState.build(nil)
        } catch {
            viewState = ConflictScreenState.build(conflict, problem: "Couldn't settle the conflict: \(error)")
        }
    }
}
