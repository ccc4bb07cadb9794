import Foundation

/// What an idempotency record keeps of a write's answer, to give the same answer to a resend.
///
/// A saved write keeps the answer's facts, not its bytes: the answer is built from them when it
/// is sent, the first time and on every replay. Its cursors are sealed deterministically
/// (``CursorSeal``), so every build is the same bytes, and the sealing happens off the store's
/// writer, which every write of the server waits for (issue 13 part 6: building the answer
/// inside the write was 7% of all samples, all on the writer's thread).
public enum RecordedAnswer: Sendable, Equatable {
    /// A saved write (`NoteWriteOutcome.saved`): its version, its feed position and the one before.
    case saved(version: Int, position: FeedPosition, previous: FeedPosition)
    /// An answer kept byte for byte: every other recorded answer, and those recorded before the
    /// facts were (migration 25 of the SQLite store, 14 of PostgreSQL's).
    case response(RecordedResponse)

    /// The record of `outcome` when the server keeps one: every 2xx answer (a 204 for a delete is
    /// kept as its bytes). Nil for the rest, which a resend decides afresh.
    static func of(_ outcome: NoteWriteOutcome) -> RecordedAnswer? {
        switch outcome {
        case .saved(let version, let position, let previous):
            .saved(version: version, position: position, previous: previous)
        case .deleted, .alreadyDeleted:
            .response(RecordedResponse(status: 204, body: Data()))
        case .conflict, .notFound, .quotaExceeded:
            nil
        }
    }
}
