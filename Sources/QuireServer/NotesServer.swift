import Foundation
import QuireCrypto
import QuireLock
import QuireWire

/// The sync server's socket-free core: API v1 as `handle(request) async -> response`.
///
/// Hosts (libmicrohttpd, tests) turn bytes into ``HTTPRequest`` and back; everything else happens
/// here. Requests run concurrently: all state lives in the storage and the long-polls' wake-up
/// (``LiveUpdates``), which this instance's writes tell after they commit and, on a store that
/// several instances share (``ChangeBroadcastingStorage``), the store's listener tells of the
/// other instances' commits.
/// Every answer is JSON with `Content-Type: application/json` (204 has no body); every refusal is
/// DESIGN.md's error shape; no input makes it crash, and no refused request changes anything stored.
public final class NotesServer: Sendable {
    let storage: any ServerStorage
    let configuration: NotesServerConfiguration
    let liveUpdates = LiveUpdates()
    /// How often a long-poll reads its feed again on its own: on a shared store,
    /// ``NotesServerConfiguration/liveUpdateRecheck``, in case a notification was lost; nil on a
    /// store only this process writes, whose every change is announced in-process.
    let recheck: Duration?
    /// The trips routes' storage: `storage` itself when it keeps trips, else nil (the trips
    /// routes then answer 501).
    let trips: (any TripStorage)?
    /// The history and trash routes' storage: `storage` itself when it keeps history (both
    /// stores do; a wrapper may not), else nil (those routes then answer 501).
    let history: (any NoteHistoryStorage)?
    let metrics = ServerMetrics()
    /// Whether a background pass runs now (see ``runBackgroundWork(olderThan:pruningHistory:)``).
    let backgroundPass = Locked(false)
    /// The uploads a PATCH of this instance is writing now (see `NotesServer+Uploads.swift`).
    let uploadLocks = UploadLocks()
    let throttle: LoginThrottle
    /// The cursor seal once read (see `NotesServer+Cursors.swift`).
    let cursorSealCache = Locked<CursorSeal?>(nil)
    let registrations: RegistrationLimit
    let hasher: AuthKeyHasher
    let now: @Sendable () -> Date
    let log: @Sendable (String) -> Void

    /// A server over `storage` with `configuration`'s token lifetimes, iteration counts and
    /// throttle. `now` stamps `updatedAt`, expires tokens and drives the login throttle; `log`
    /// receives one line per internal error.
    public init(
        storage: any ServerStorage, configuration: NotesServerConfiguration = .init(),
        now: @escaping @Sendable () -> Date = Date.init,
        log: @escaping @Sendable (String) -> Void = NotesServer.logToStandardError
    ) {
        self.storage = storage
        self.trips = storage as? any TripStorage
        self.history = storage as? any NoteHistoryStorage
        self.configuration = configuration
        self.throttle = LoginThrottle(
            policy: configuration.throttle,
            store: storage as? any LoginThrottleStore ?? MemoryLoginThrottleStore(), now: now)
        self.registrations = RegistrationLimit(policy: configuration.registrationLimit, now: now)
        self.hasher = AuthKeyHasher(iterations: configuration.authHashIterations)
        self.now = now
        self.log = log
        let shared = storage as? any ChangeBroadcastingStorage
        self.recheck = shared == nil ? nil : configuration.liveUpdateRecheck
        shared?.startChangeListener(delivering: liveUpdates)
    }

    /// Wakes long-polls of the notes feed.
    var notifier: ChangeNotifier { liveUpdates.notes }
    /// Wakes long-polls of the trips feed.
    var tripNotifier: ChangeNotifier { liveUpdates.trips }

    /// A server over the SQLite file at `path`, created if needed. Throws `SQLiteError` when the
    /// file cannot be opened or migrated.
    public static func sqlite(
        path: String, configuration: NotesServerConfiguration = .init(),
        now: @escaping @Sendable () -> Date = Date.init,
        log: @escaping @Sendable (String) -> Void = NotesServer.logToStandardError
    ) throws -> NotesServer {
        NotesServer(
            storage: try SQLiteServerStorage(path: path, log: log), configuration: configuration, now: now,
            log: log)
    }

    public static let logToStandardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("quire-server: \(line)\n".utf8))
    }

    // MARK: - Handling requests

    /// Answers one request. Never throws: failures become JSON errors (5xx only for storage faults).
    ///
    /// The request's `remoteAddress` is first replaced by the client's address behind a trusted
    /// proxy (``NotesServerConfiguration/trustedProxies``), so every route sees the client's.
    ///
    /// If the calling task is cancelled during a long-poll, the poll ends early and the current
    /// (possibly empty) page is answered.
    ///
    /// Every answer, `/metrics` included, is counted in ``metrics`` with the time from here to
    /// the answer, measured on `ContinuousClock`.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var request = request
        request.remoteAddress = configuration.trustedProxies.clientAddress(
            peer: request.remoteAddress, forwardedFor: request.header("X-Forwarded-For"))
        let started = ContinuousClock.now
        metrics.requestStarted()
        // The route is awaited here, not through a function of its own: every level of calls a
        // request's task goes through keeps a slab of its task memory until the answer, and a
        // waiting long-poll is mostly that memory (docs/benchmarks.md, memory per waiter).
        let response: HTTPResponse
        do {
            response = try await route(request)
        } catch {
            response = answer(for: error, to: request)
        }
        metrics.record(request, status: response.status, duration: ContinuousClock.now - started)
        return response
    }

    /// The answer to a request whose route threw `error`.
    private func answer(for error: any Error, to request: HTTPRequest) -> HTTPResponse {
        switch error {
        case let error as APIError:
            return .error(error)
        case let error as ServerStorageError where error == .closed:
            return .error(.unavailable)
        default:
            // The route template, not the path: a log line never carries a note id or username.
            let route = ServerMetrics.routeTemplate(for: request.path)
            log("\(ServerMetrics.methodLabel(request.method)) \(route) failed: \(error)")
            return .error(.internalError)
        }
    }

    /// Sends the request to its route. Kept to a few awaits of `request` alone: its task context
    /// lives as long as the request does, a long-poll's 30 s included, so every value held across
    /// an await here is held by every waiting poll (docs/benchmarks.md, memory per waiter).
    private func route(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        request.path = Self.routablePath(request.path)
        if let response = try await uploadsRoute(request) { return response }
        try RequestValidation.refuseNUL(in: request.body)
        if request.path == WireRoutes.changes {
            try allow(request, ["GET"])
            return try await changes(request, reader: try await authenticate(request))
        }
        if let response = try await fixedRoute(request) { return response }
        if let response = try await sharingRoute(request) { return response }
        if let response = try await accountsRoute(request) { return response }
        if let response = try await tripsRoute(request) { return response }
        if let response = try await historyRoute(request) { return response }
        return try await noteWrite(request)
    }

    /// The routes with a path of their own: health, the API document, the batch, metrics.
    @inline(never)  // Keeps `route(_:)`'s task context small.
    private func fixedRoute(_ request: HTTPRequest) async throws -> HTTPResponse? {
        switch request.path {
        case "/v1/health":
            try allow(request, ["GET"])
            return .json(200, body: Data(#"{"status":"ok"}"#.utf8))
        case "/v1/openapi.json":
            try allow(request, ["GET"])
            return .json(
                200, body: Data(OpenAPIDocument.json(minKDFIterations: configuration.minKDFIterations).utf8))
        case WireRoutes.batch:
            try allow(request, ["POST"])
            guard request.body.count <= WireRoutes.maxBodyBytes else { throw APIError.payloadTooLarge }
            return try await batch(request, session: try await authenticate(request))
        case ServerMetrics.path:
            try allow(request, ["GET"])
            try authorizeMetrics(request)
            return await metricsResponse()
        default:
            return nil
        }
    }

    /// `PUT` or `DELETE /v1/notes/{id}`, the last route tried: any other path is 404.
    @inline(never)  // Keeps `route(_:)`'s task context small.
    private func noteWrite(_ request: HTTPRequest) async throws -> HTTPResponse {
        let path = request.path
        guard path.hasPrefix(WireRoutes.notesPrefix) else {
            throw APIError.notFound("There is no \(path); see /v1/openapi.json for the API.")
        }
        let rawID = String(path.dropFirst(WireRoutes.notesPrefix.count))
        guard !rawID.utf8.contains(UInt8(ascii: "/")) else {
            throw APIError.notFound("There is no \(path); notes live at /v1/notes/{uuid}.")
        }
        try allow(request, ["PUT", "DELETE"])
        guard request.body.count <= WireRoutes.maxBodyBytes else { throw APIError.payloadTooLarge }
        let session = try await authenticate(request)
        let noteID = try RequestValidation.noteID(rawID)
        let key = try RequestValidation.idempotencyKey(request)
        let write: NoteWrite
        if request.method == "PUT" {
            let body = try RequestValidation.putBody(request.body)
            write = .put(
                noteID: noteID, payload: body.payload,
                base: try body.baseVersion.map {
                    BaseVersion(
                        number: $0,
                        tag: try RequestValidation.versionTag(
                            body.baseVersionTag, name: "baseVersionTag"))
                })
        } else {
            write = .delete(noteID: noteID, base: try RequestValidation.deleteBase(request))
        }
        let idempotency = IdempotencyKey(
            key: key, fingerprint: RequestValidation.fingerprint(request))
        return try await apply(write, session: session, idempotency: idempotency)
    }

    /// `path` with every byte outside ASCII percent-encoded, as the routes read it. Every route
    /// and every id in one is ASCII, and Swift compares strings by `Character`: a joining
    /// character right after a `/` (a skin-tone modifier, a combining accent, a joiner) makes
    /// the two one `Character`, so `/v1/trips/` was no longer the path's prefix and a malformed
    /// id answered 404 as an unknown path instead of 400.
    static func routablePath(_ path: String) -> String {
        guard path.utf8.contains(where: { $0 >= 0x80 }) else { return path }
        var routable = ""
        for byte in path.utf8 {
            if byte < 0x80 {
                routable.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                routable += "%" + String(byte, radix: 16, uppercase: true)
            }
        }
        return routable
    }

    func allow(_ request: HTTPRequest, _ methods: [String]) throws(APIError) {
        guard methods.contains(request.method) else {
            throw .methodNotAllowed(request.method, path: request.path, allowed: methods)
        }
    }

    // MARK: - Notes

    /// Applies a PUT or DELETE. Only 2xx answers are recorded with the idempotency key: a resend
    /// after a 409 or 404 is decided again against the note's state at that time.
    ///
    /// The answer is built after the write, off the store's writer: the record keeps a saved
    /// write's facts, and a replay builds the same bytes from them (``RecordedAnswer``).
    private func apply(
        _ write: NoteWrite, session: AuthenticatedSession, idempotency: IdempotencyKey
    ) async throws -> HTTPResponse {
        let account = session.account
        let seal = try await cursorSeal()
        let result = try await storage.write(
            write, account: account, writer: session.session, idempotency: idempotency,
            quota: configuration.noteQuota, now: now(), record: RecordedAnswer.of)
        switch result {
        case .keyReused:
            throw APIError.idempotencyKeyReused
        case .replayed(let recorded):
            var response = Self.response(for: recorded, seal: seal, account: account)
            response.headers["Idempotent-Replayed"] = "true"
            return response
        case .applied(let outcome):
            if outcome.changedFeed { await liveUpdates.accountChanged(account, feed: .notes) }
            return Self.response(for: outcome, seal: seal, account: account)
        }
    }

    /// A recorded answer, as it was first sent.
    static func response(for recorded: RecordedAnswer, seal: CursorSeal, account: AccountID) -> HTTPResponse {
        switch recorded {
        case .saved(let version, let position, let previous):
            response(
                for: NoteWriteOutcome.saved(version: version, position: position, previous: previous), seal: seal,
                account: account)
        case .response(let response):
            response.body.isEmpty ? .empty(response.status) : .json(response.status, body: response.body)
        }
    }

    /// A saved write's answer: its version and tag, and its position and the one before it as
    /// `cursor` seals them for the writer's feed.
    static func savedAnswer(
        version: Int, position: FeedPosition, previous: FeedPosition, cursor: (FeedPosition) -> String
    ) -> PutNoteResponseDTO {
        PutNoteResponseDTO(
            version: version, cursor: cursor(position), previousCursor: cursor(previous),
            versionTag: position.mark.flatMap(StoredNote.tagText))
    }

    /// The one answer for each write outcome; its positions are sealed for `account`'s feed.
    static func response(for outcome: NoteWriteOutcome, seal: CursorSeal, account: AccountID) -> HTTPResponse {
        switch outcome {
        case .saved(let version, let position, let previous):
            .json(
                200,
                body: savedAnswer(version: version, position: position, previous: previous) {
                    ChangeCursor(position: $0).text(seal: seal, scope: .notes(account))
                }.wireJSON)
        case .deleted, .alreadyDeleted:
            .empty(204)
        case .conflict(let note, let baseKnown):
            .json(409, ConflictResponseDTO(note: note.wire, baseKnown: baseKnown))
        case .notFound:
            .error(.noteNotFound)
        case .quotaExceeded(let limit):
            .error(.quotaExceeded(limit))
        }
    }

    // MARK: - Changes feed

    private func changes(_ request: HTTPRequest, reader: AuthenticatedSession) async throws
        -> HTTPResponse
    {
        let account = reader.account
        let seal = try await cursorSeal()
        let query = try RequestValidation.changesQuery(request, seal: seal, scope: .notes(account))
        let omitOwn = try RequestValidation.omitsOwnPayloads(request)
        let (page, refused) = try await longPoll(
            .notes, account: account, wait: query.wait, isEmpty: { $0.changes.isEmpty }
        ) {
            try await changesPage(
                reader: reader, since: query.since, known: query.known.map(\.position), limit: query.limit,
                omitOwnPayloads: omitOwn)
        }
        return refused ? .longPollRefused(page, wait: query.wait) : .json(200, page)
    }

    /// One page of the reader's account feed. In an incremental pull, a note whose current state
    /// the reader's own session wrote comes without its payload, marked `ownWrite`: the device has
    /// that text already (promise 4, only changes travel). Every page of a full listing (no
    /// `since`, and the pages that continue it) carries payloads, since the device is rebuilding
    /// its copy and drops what the listing does not confirm, unless the request says
    /// `ownPayloads=omit` (`omitOwnPayloads`): a device's first listing after uploading what it
    /// wrote offline. Its own entries then come marked `ownWrite` with their version and tag,
    /// which the device checks against its copy (and lists again with payloads on a mismatch).
    ///
    /// A full listing's continuation cursor carries where the listing began, so a tombstone purge
    /// from before it never expires it (a new device on an account with an old purged delete
    /// could otherwise never finish its first sync); incremental cursors expire below the purge.
    /// Every cursor carries the marks of its numbers, so one from a history a restore forgot is
    /// `invalid_cursor` even after the restored server's counter passed it, and so is a `known`
    /// write position (a write the device had acknowledged) the server forgot, however old the
    /// device's cursor.
    private func changesPage(
        reader: AuthenticatedSession, since: ChangeCursor?, known: [FeedPosition], limit: Int,
        omitOwnPayloads: Bool = false
    ) async throws -> ChangesPageDTO {
        let account = reader.account
        let result: ChangesResult
        if let since, let listingStart = since.listingStart {
            result = try await storage.changes(
                account: account, continuingFullListingAfter: since.position,
                listingStart: listingStart, known: known, limit: limit)
        } else {
            result = try await storage.changes(
                account: account, since: since?.position, known: known, limit: limit)
        }
        switch result {
        case .cursorAhead, .cursorFromAnotherHistory:
            throw APIError.invalidCursor
        case .cursorExpired:
            throw APIError.cursorExpired
        case .page(let notes, let hasMore, let highest, let last, let remaining):
            // The last page points at the account's latest change, so tombstones behind the last
            // live note of a full resync are not sent again; a cursor never moves backwards.
            let next: FeedPosition
            if hasMore {
                next = last ?? highest
            } else if let since, since.seq > highest.seq {
                next = since.position
            } else {
                next = highest
            }
            let inFullListing = since == nil || since?.fullListing == true
            let changes = notes.map { note in
                var entry = note.wire
                if !inFullListing || omitOwnPayloads, !note.deleted, note.writer == reader.session {
                    entry.payload = nil
                    entry.ownWrite = true
                }
                return entry
            }
            // Past the byte budget: the same page with fewer notes, as if the client had asked
            // for that limit, so the cursor and `hasMore` keep the storage's own rules. (The
            // storage read the whole page once; a budget inside its query would spare that.)
            let fitting = Self.notesWithinBudget(changes, budget: configuration.changesPageBytes)
            if fitting < changes.count, fitting < limit {
                return try await changesPage(
                    reader: reader, since: since, known: known, limit: fitting, omitOwnPayloads: omitOwnPayloads)
            }
            // A listing's pages carry where it began: its first page's feed position.
            let listingStart = inFullListing && hasMore ? since?.listingStart ?? highest : nil
            return ChangesPageDTO(
                changes: changes,
                nextCursor: ChangeCursor(position: next, listingStart: listingStart).text(
                    seal: try await cursorSeal(), scope: .notes(account)),
                // A store that cannot count what is left says 0 with more to come: no total then.
                hasMore: hasMore, remaining: hasMore && remaining == 0 ? nil : remaining)
        }
    }

    /// How many of `changes`, from the first, fit in `budget` payload bytes; at least one.
    static func notesWithinBudget(_ changes: [NoteChangeDTO], budget: Int) -> Int {
        var bytes = 0
        for (index, change) in changes.enumerated() {
            bytes += change.payload?.utf8.count ?? 0
            if bytes > budget { return max(1, index) }
        }
        return changes.count
    }

    // MARK: - Maintenance

    /// Deletes tombstones last changed before `cutoff`; incremental cursors from before them get
    /// 410 after. A full listing gets 410 only when a purged tombstone was written after its first
    /// page (it may be the delete of a note the listing showed); a purge of older ones never stops
    /// it. Trip items (and trips) deleted before `cutoff` go too, with all their fields, and a
    /// trip changes cursor from before them gets 410. Returns how many notes, items and trips
    /// were deleted.
    @discardableResult
    public func purgeTombstones(olderThan cutoff: Date) async throws -> Int {
        let notes = try await storage.purgeTombstones(olderThan: cutoff)
        return notes + (try await trips?.purgeAllTripTombstones(olderThan: cutoff).purged ?? 0)
    }

    /// Ends every long-poll at once (each answers its current page); later polls answer at once.
    /// Call before stopping a host so no connection stays held open.
    public func wakeAllWaiters() async {
        await liveUpdates.shutDown()
    }

    /// Wakes all waiters and closes the storage; later requests get 503 `unavailable`.
    public func shutDown() async {
        await liveUpdates.shutDown()
        await storage.close()
    }
}

extension StoredNote {
    /// The feed's and the 409's form of this row.
    var wire: NoteChangeDTO {
        NoteChangeDTO(
            id: id, version: version, updatedAt: updatedAt, deleted: deleted,
            payload: deleted ? nil : payload, versionTag: Self.tagText(mark))
    }

    /// A mark as a version tag; none for 0 (a state from before tags were kept).
    static func tagText(_ mark: Int64) -> String? {
        mark > 0 ? String(mark) : nil
    }
}
