import Foundation
import QuireWire

/// The history and trash routes, and the pruning of earlier versions.
///
/// `GET /v1/notes/{id}/versions` and `GET /v1/notes/trash` need the same bearer token as the note
/// routes and see only the caller's account: another account's note id is a 404, like an unknown
/// one. Restoring needs no route of its own: it is an ordinary `PUT` on the current version (a
/// tombstone's, for the trash), which keeps the version it replaces.
extension NotesServer {
    func historyRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        let path = request.path
        if path == WireRoutes.trash {
            try allow(request, ["GET"])
            guard let history else { throw APIError.historyUnavailable }
            let session = try await authenticate(request)
            let limit = try RequestValidation.historyLimit(request)
            let page = try await history.trash(account: session.account, limit: limit)
            return .json(
                200,
                TrashPageDTO(
                    notes: page.notes.map { trashed in
                        TrashedNoteDTO(
                            id: trashed.tombstone.id, version: trashed.tombstone.version,
                            versionTag: StoredNote.tagText(trashed.tombstone.mark),
                            deletedAt: trashed.tombstone.updatedAt, last: trashed.last.wire)
                    }, hasMore: page.hasMore))
        }
        let suffix = "/versions"
        guard path.hasPrefix(WireRoutes.notesPrefix), path.hasSuffix(suffix) else { return nil }
        let rawID = String(path.dropFirst(WireRoutes.notesPrefix.count).dropLast(suffix.count))
        guard !rawID.contains(Character("/")) else { return nil }
        try allow(request, ["GET"])
        guard let history else { throw APIError.historyUnavailable }
        let session = try await authenticate(request)
        let noteID = try RequestValidation.noteID(rawID)
        let limit = try RequestValidation.historyLimit(request)
        let before = try RequestValidation.historyBefore(request)
        guard
            let found = try await history.noteHistory(
                account: session.account, noteID: noteID, before: before, limit: limit)
        else { throw APIError.historyNotFound }
        let current = found.current
        let page = NoteHistoryDTO(
            id: current.id, version: current.version, versionTag: StoredNote.tagText(current.mark),
            deleted: current.deleted, updatedAt: current.updatedAt, versions: found.versions.map(\.wire),
            hasMore: found.hasMore)
        // Written directly: JSONEncoder spent most of a 500-version answer copying payloads.
        return .json(200, body: page.wireJSON())
    }

    // MARK: - Pruning

    /// Prunes every account's history by ``NotesServerConfiguration/history`` as of now, in
    /// bounded steps of `batchSize` notes, each its own short transaction with a yield between,
    /// so writes go on while it runs. Returns how many versions went. Cancelling the caller stops
    /// it between steps; what the finished steps pruned stays pruned.
    @discardableResult
    public func pruneHistory(batchSize: Int = 32) async throws -> Int {
        guard let history else { return 0 }
        let retention = configuration.history
        let started = now()
        var cursor: HistoryPruneCursor?
        var pruned = 0
        repeat {
            try Task.checkCancellation()
            let step = try await history.pruneHistory(
                after: cursor, retention: retention, now: started, batchSize: batchSize)
            pruned += step.pruned
            cursor = step.next
            await Task.yield()
        } while cursor != nil
        return pruned
    }
}
