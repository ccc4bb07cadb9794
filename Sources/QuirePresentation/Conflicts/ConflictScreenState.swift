import Foundation
import QuireDomain

/// Everything the conflict screen shows (seed 004 step 07): the versions side by side, this
/// device's first, and the choices, named by side ("Keep mine") when exactly one side was typed
/// here, and by note otherwise.
public struct ConflictScreenState: Equatable, Sendable {
    public let sides: [ConflictSide]
    public let options: [ConflictOption]
    /// Something to say above the versions (the original was deleted).
    public let message: String?
    /// The conflict has not been read yet.
    public let isLoading: Bool
    /// Nothing is left to settle: a choice was saved, or the conflict was settled elsewhere.
    public let isSettled: Bool
    /// The last read or choice that failed, for people.
    public let problem: String?

    public init(
        sides: [ConflictSide] = [], options: [ConflictOption] = [], message: String? = nil, isLoading: Bool = false,
        isSettled: Bool = false, problem: String? = nil
    ) {
        self.sides = sides
        self.options = options
        self.message = message
        self.isLoading = isLoading
        self.isSettled = isSettled
        self.problem = problem
    }

    /// The screen for `conflict` (nil: there is none any more). Pure.
    ///
    /// `ConflictChoice` is by note: `.mine` gives the original the copy's text, `.theirs` keeps the
    /// original's. On the device that made the copy the copy holds its text; on the other device
    /// the original does. So "Keep mine" is `.mine` only where the copy was typed here.
    static func build(_ conflict: NoteConflict?, problem: String? = nil) -> ConflictScreenState {
        guard let conflict else { return ConflictScreenState(isSettled: true, problem: problem) }
        let copy = side(conflict.copy)
        guard let original = conflict.original else {
            return ConflictScreenState(
                sides: [copy],
                options: [
                    ConflictOption(title: "Keep it as a note", choice: .both),
                    ConflictOption(
                        title: "Discard it", choice: .theirs,
                        confirmation:
                            "Discarding deletes the last place this text is. You can restore it from the trash."),
                ],
                message: "The original note was deleted. This copy is the only place this text is.", problem: problem)
        }
        let both = ConflictOption(title: "Keep both", choice: .both)
        switch (original.isTypedHere, conflict.copy.isTypedHere) {
        case (false, true):
            return ConflictScreenState(
                sides: [copy, side(original)],
                options: [
                    ConflictOption(title: "Keep mine", choice: .mine),
                    ConflictOption(title: "Keep theirs", choice: .theirs), both,
                ], problem: problem)
        case (true, false):
            return ConflictScreenState(
                sides: [side(original), copy],
                options: [
                    ConflictOption(title: "Keep mine", choice: .theirs),
                    ConflictOption(title: "Keep theirs", choice: .mine), both,
                ], problem: problem)
        default:
            // Both typed here, or both elsewhere: "mine" would name neither, so name the notes.
            return ConflictScreenState(
                sides: [side(original), copy],
                options: [
                    ConflictOption(title: "Keep the original", choice: .theirs),
                    ConflictOption(title: "Keep the copy", choice: .mine), both,
                ], problem: problem)
        }
    }

    static func side(_ version: NoteConflict.Version) -> ConflictSide {
        let label: String
        switch version.typedOn {
        case nil: label = "Typed on this device"
        case let name? where name.trimmingCharacters(in: .whitespaces).isEmpty: label = "Typed on another device"
        case let name?: label = "Typed on \(name)"
        }
        return ConflictSide(
            id: version.note.id, label: label, title: version.note.title, body: version.note.body,
            isTypedHere: version.isTypedHere)
    }
}
