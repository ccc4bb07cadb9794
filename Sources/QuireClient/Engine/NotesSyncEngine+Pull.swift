import Foundation
import QuireDomain
import QuireWire

// MARK: - Pull

extension NotesSyncEngine {
    /// Pulls every page of the feed from the stored cursor, each page applied with its cursor in
    /// one transaction.
    ///
    /// A pull from no cursor lists every live note, and so does one whose cursor the server no
    /// longer takes: after any such listing the device holds exactly the server's live notes plus
    /// its own pending ones (a note the listing left out was deleted elsewhere, unless the server
    /// said it lost writes: then this device's copy is uploaded again). The first page also names
    /// the writes the server acknowledged to this device since the last check, so a server
    /// restored to a backup from between this device's last pull and one of those writes says it
    /// forgot it.
    func pullAll(_ report: inout SyncReport) async throws {
        var cursor = try await records.cursor()
        if cursor == nil {
            try await records.beginFullResync(.firstListing)
        }
        var restarted: Set<FullResyncReason> = []
        var checked = false
        while true {
            try Task.checkCancellation()
            let page: ChangesPageDTO
            do {
                let known = checked ? [] : try await records.ackedPositions().all
                page = try await api.changes(since: cursor, known: known, limit: pageLimit, wait: 0)
                if !checked {
                    try await records.positionsVerified(through: nil)
                    checked = true
                }
            } catch let error as NotesAPIError {
                // Offline longer than the server keeps tombstones (410), or a cursor the server
                // never issued as far as it knows (it lost writes: a restored backup). Start over,
                // keeping what's pending; once per reason and run, so a pull always ends.
                guard let reason = Self.resyncReason(for: error), !restarted.contains(reason) else {
                    throw error
                }
                restarted.insert(reason)
                try await records.beginFullResync(reason)
                report.fullResync = true
                cursor = nil
                continue
            }
            var notes: [RemoteNote] = []
            notes.reserveCapacity(page.changes.count)
            for dto in page.changes {
                // This device's own write, sent back without its payload: nothing to apply.
                if dto.ownWrite == true { continue }
                do {
                    notes.append(try remoteNote(from: dto))
                } catch {
                    report.undecryptable += 1
                }
            }
            let next = Cursor(page.nextCursor)
            // A page that says "more" must move the cursor, or the pull would never end.
            if page.hasMore, next == cursor {
                throw NotesAPIError(
                    kind: .invalidResponse, message: "The server's feed did not move forward.")
            }
            try await records.apply(notes, cursor: next, account: account)
            report.received += notes.count
            cursor = next
            progressHandler?(
                SyncProgress(
                    phase: .receiving, done: report.received,
                    total: page.remaining.map { report.received + $0 }, finished: !page.hasMore))
            if !page.hasMore {
                // The last page's cursor is incremental and names the account's latest change:
                // from now on it stands for every write before it.
                try await records.positionsVerified(through: next)
                break
            }
        }
        // Also finishes a resync an earlier run began and a failure or crash interrupted: its
        // pages confirmed notes, and notes it never listed must go (or be sent again).
        report.reuploaded += try await records.finishFullResync()
    }

    /// The full listing a failed pull calls for, if any.
    static func resyncReason(for error: NotesAPIError) -> FullResyncReason? {
        if error.kind == .cursorExpired { return .cursorExpired }
        if error.kind == .refused, error.code == "invalid_cursor" { return .serverForgot }
        return nil
    }

    func remoteNote(from dto: NoteChangeDTO) throws -> RemoteNote {
        guard let id = NoteID(dto.id) else {
            throw NotesAPIError(kind: .invalidResponse, message: "The server sent a bad note id.")
        }
        guard !dto.deleted else {
            return RemoteNote(
                id: id, version: dto.version, updatedAt: dto.updatedAt, content: nil,
                versionTag: dto.versionTag)
        }
        guard let payload = dto.payload else {
            throw PayloadError(noteID: id, reason: "no payload")
        }
        let content = try codec.open(payload, noteID: id)
        return RemoteNote(
            id: id, version: dto.version, updatedAt: dto.updatedAt, content: content,
            versionTag: dto.versionTag)
    }
}
