import Foundation
import QuireDomain
import QuireWire

/// The history and trash endpoints: what the server kept of a note's earlier texts (sealed, as
/// sent) and the deleted notes it can still give back. Throws ``NotesAPIError`` (a 404 for a note
/// this account does not have, `refused`). Cancelling the caller cancels the request.
///
/// Apart from ``NotesAPI`` so the sync engine's seam (and its fakes) stays as it is.
public protocol NoteHistoryAPI: Sendable {
    /// A page of the note's versions numbered below `before` (the newest when nil), newest first.
    func history(of id: NoteID, before: Int?, limit: Int) async throws -> NoteHistoryDTO
    /// Up to `limit` deleted notes that can still be restored, most recently deleted first.
    func trash(limit: Int) async throws -> TrashPageDTO
}
