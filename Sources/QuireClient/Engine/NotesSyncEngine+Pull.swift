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
        // Every note the pages listed, for the progress (the report counts those that changed).
        var listed = 0
        // The next page, fetched and opened while this one is stored; dropped on any way out.
        var ahead: Task<OpenedPage, any Error>?
        defer { ahead?.cancel() }
        while true {
            try Task.checkCancellation()
            var opened: OpenedPage
            do {
                if let next = ahead {
                    ahead = nil
                    opened = try await next.value
                } else {
                    let known = checked ? [] : try await records.ackedPositions().all
                    opened = try await fetchPage(since: cursor, known: known, omitOwn: omitOwn)
                    if !checked {
                        try await records.positionsVerified(through: nil)
                        checked = true
                    }
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
            var next = try Self.nextCursor(of: opened.page, after: cursor)
            if opened.page.hasMore, readAhead {
                ahead = readAheadTask(since: next, omitOwn: omitOwn)
            }
            var changed: Int?
            if omitOwn, !opened.own.isEmpty {
                changed = try await records.apply(
                    opened.notes, confirming: opened.own, cursor: next, account: account)
            } else {
                changed = try await records.apply(opened.notes, cursor: next, account: account)
            }
            if changed == nil {
                // This device's copy of one of its own writes is not what the server lists (an
                // answer lost, a version moved on): only the payloads can say what the server
                // holds, so the same page comes again with all of them, and so does the rest.
                ahead?.cancel()
                ahead = nil
                omitOwn = false
                opened = try await fetchPage(since: cursor, known: [], omitOwn: false)
                next = try Self.nextCursor(of: opened.page, after: cursor)
                changed = try await records.apply(opened.notes, cursor: next, account: account)
            }
            report.received += changed ?? 0
            report.undecryptable += opened.undecryptable
            cursor = next
            listed += opened.notes.count + opened.own.count
            progressHandler?(
                SyncProgress(
                    phase: .receiving, done: listed, total: opened.page.remaining.map { listed + $0 },
                    finished: !opened.page.hasMore))
            if !opened.page.hasMore {
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

    /// A page's cursor; a page that says "more" must move it, or the pull would never end.
    private static func nextCursor(of page: ChangesPageDTO, after cursor: Cursor?) throws -> Cursor {
        let next = Cursor(page.nextCursor)
        if page.hasMore, next == cursor {
            throw NotesAPIError(kind: .invalidResponse, message: "The server's feed did not move forward.")
        }
        return next
    }

    /// Fetches and opens one page, off this actor and the database's.
    private func fetchPage(since cursor: Cursor?, known: [Cursor], omitOwn: Bool) async throws -> OpenedPage {
        try await Self.fetchPage(
            api: api, codec: codec, since: cursor, known: known, limit: pageLimit, omitOwn: omitOwn,
            lanes: readAhead ? ProcessInfo.processInfo.activeProcessorCount : 1)
    }

    /// The next page, fetched and opened while the caller stores the current one.
    private func readAheadTask(since cursor: Cursor, omitOwn: Bool) -> Task<OpenedPage, any Error> {
        let (api, codec, limit) = (api, codec, pageLimit)
        let lanes = ProcessInfo.processInfo.activeProcessorCount
        return Task.detached {
            try await Self.fetchPage(
                api: api, codec: codec, since: cursor, known: [], limit: limit, omitOwn: omitOwn, lanes: lanes)
        }
    }

    private static func fetchPage(
        api: NotesAPI, codec: PayloadCodec, since cursor: Cursor?, known: [Cursor], limit: Int, omitOwn: Bool,
        lanes: Int
    ) async throws -> OpenedPage {
        let page = try await api.changes(
            since: cursor, known: known, limit: limit, wait: 0, omittingOwnPayloads: omitOwn)
        return await OpenedPage.open(page, codec: codec, lanes: lanes)
    }

    /// The full listing a failed pull calls for, if any.
    static func resyncReason(for error: NotesAPIError) -> FullResyncReason? {
        if error.kind == .cursorExpired { return .cursorExpired }
        if error.kind == .refused, error.code == "invalid_cursor" { return .serverForgot }
        return nil
    }

    func remoteNote(from dto: NoteChangeDTO) throws -> RemoteNote {
        try Self.remoteNote(from: dto, codec: codec)
    }

    /// The entry opened with `codec`; throws for a bad id or a payload that does not open.
    nonisolated static func remoteNote(from dto: NoteChangeDTO, codec: PayloadCodec) throws -> RemoteNote {
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
