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
        // A first listing (from no cursor, in this run) leaves out the payloads of the notes this
        // session wrote, which the push before it has just sent: they are confirmed by version
        // and tag instead. A listing restarted for a 410 or a forgetful server carries them all.
        var omitOwn = cursor == nil
        if cursor == nil {
            try await records.beginFullResync(.firstListing)
        }
        var restarted: Set<FullResyncReason> = []
        var checked = false
        while true {
            try Task.checkCancellation()
            var page: ChangesPageDTO
            do {
                let known = checked ? [] : try await records.ackedPositions().all
                page = try await api.changes(
                    since: cursor, known: known, limit: pageLimit, wait: 0, omittingOwnPayloads: omitOwn)
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
                omitOwn = false
                continue
            }
            let next = Cursor(page.nextCursor)
            // A page that says "more" must move the cursor, or the pull would never end.
            if page.hasMore, next == cursor {
                throw NotesAPIError(
                    kind: .invalidResponse, message: "The server's feed did not move forward.")
            }
            var opened = open(page, &report)
            let confirmed: Bool
            if omitOwn, !opened.own.isEmpty {
                confirmed = try await records.apply(
                    opened.notes, confirming: opened.own, cursor: next, account: account)
            } else {
                try await records.apply(opened.notes, cursor: next, account: account)
                confirmed = true
            }
            if !confirmed {
                // This device's copy of one of its own writes is not what the server lists (an
                // answer lost, a version moved on): only the payloads can say what the server
                // holds, so the same page comes again with all of them, and stays the listing's.
                omitOwn = false
                report.undecryptable -= opened.undecryptable
                page = try await api.changes(
                    since: cursor, known: [], limit: pageLimit, wait: 0, omittingOwnPayloads: false)
                opened = open(page, &report)
                try await records.apply(opened.notes, cursor: Cursor(page.nextCursor), account: account)
            }
            let pageCursor = Cursor(page.nextCursor)
            report.received += opened.notes.count
            cursor = pageCursor
            progressHandler?(
                SyncProgress(
                    phase: .receiving, done: report.received + opened.ownCount,
                    total: page.remaining.map { report.received + opened.ownCount + $0 },
                    finished: !page.hasMore))
            if !page.hasMore {
                // The last page's cursor is incremental and names the account's latest change:
                // from now on it stands for every write before it.
                try await records.positionsVerified(through: pageCursor)
                break
            }
        }
        // Also finishes a resync an earlier run began and a failure or crash interrupted: its
        // pages confirmed notes, and notes it never listed must go (or be sent again).
        report.reuploaded += try await records.finishFullResync()
    }

    /// A page's notes opened, and its own writes sent without payload; payloads that fail to
    /// open are counted in `report` and skipped (promise 6).
    private func open(_ page: ChangesPageDTO, _ report: inout SyncReport)
        -> (notes: [RemoteNote], own: [ListedOwnWrite], ownCount: Int, undecryptable: Int)
    {
        var notes: [RemoteNote] = []
        var own: [ListedOwnWrite] = []
        var undecryptable = 0
        notes.reserveCapacity(page.changes.count)
        for dto in page.changes {
            // This device's own write, sent back without its payload: nothing to apply, only
            // (in a first listing) a version to confirm.
            if dto.ownWrite == true {
                // One that cannot be checked (no id, a tombstone) gets no tag: it fails the
                // check, and the page comes again with payloads.
                let checkable = !dto.deleted && dto.payload == nil
                own.append(
                    ListedOwnWrite(
                        id: NoteID(dto.id) ?? NoteID(), version: dto.version,
                        versionTag: checkable ? dto.versionTag : nil))
                continue
            }
            do {
                notes.append(try remoteNote(from: dto))
            } catch {
                undecryptable += 1
            }
        }
        report.undecryptable += undecryptable
        return (notes, own, own.count, undecryptable)
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
