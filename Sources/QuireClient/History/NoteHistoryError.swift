import Foundation

/// Why a restore from the history or trash screen could not be made.
public enum NoteHistoryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The note has no version by that name (any more).
    case noSuchVersion(String)
    /// The note is no longer in the trash (restored elsewhere, or purged).
    case notInTrash

    public var description: String {
        switch self {
        case .noSuchVersion(let reference): "the note has no version \(reference) any more"
        case .notInTrash: "the note is no longer in the trash"
        }
    }
}
