import Foundation
import QuireDomain
import QuireSQLite
import QuireWire

/// The one background job (seed 000 card 6): push pending changes one at a time, oldest first,
/// then pull every page of the feed.
///
/// One run at a time: a run started while another is going joins it. Each change is sent with its
/// change id and the base version frozen when it was first sent, so a resend after a lost reply is
/// identical and the server answers it with its first answer. On a 409 the engine asks the
/// ``ConflictPolicy`` and writes the outcome in one transaction. A failed request ends the run with
/// the change still queued, to be sent unchanged next time. Each page of the feed is applied with
/// its cursor in one transaction, so an interrupted pull resumes where it stopped.
public actor NotesSyncEngine {
    public typealias ProgressHandler = @Sendable (SyncProgress) -> Void

    private let records: SyncRecords
    private let api: NotesAPI
    private let codec: PayloadCodec
    private let policy: ConflictPolicy
    private let account: AccountID
    private let now: @Sendable () -> Date
    private let pageLimit: Int
    /// How many pending changes (of different notes) travel in one request.
    private let batchLimit: Int
    private var running: Task<SyncReport, Never>?
    /// Save-to-acknowledgement latencies of this run, added to the metrics at its end.
    private var acknowledgementLatencies: [TimeInterval] = []
    private var progressHandler: ProgressHandler?

    public init(
        records: SyncRecords, api: NotesAPI, codec: PayloadCodec, account: AccountID,
        policy: ConflictPolicy = ConflictPolicy(), pageLimit: Int = WireRoutes.defaultPageLimit,
        batchLimit: Int = WireRoutes.maxBatchSize, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.batchLimit = min(max(batchLimit, 1), WireRoutes.maxBatchSize)
        self.records = records
        self.api = api
        self.codec = codec
        self.account = account
        self.policy = policy
        self.pageLimit = pageLimit
        self.now = now
    }

    /// Called after each page of a pull with the notes received so far.
    public func onProgress(_ handler: ProgressHandler?) {
        progressHandler = handler
    }

    /// Pushes every pending change, then pulls every page; records the outcome in the status row.
    ///
    /// Never throws: a failure is in the report and in the status, and the notes stay. If a run is
    /// already going, this waits for it and returns its report. Cancelling the caller does not
    /// cancel the run (another caller may be waiting on it); the next run picks up where it stopped.
    @discardableResult
    public func syncOnce() async -> SyncReport {
        if let running { return await running.value }
        let task = Task { await self.run() }
        running = task
        let report = await task.value
        running = nil
        return report
    }

    /// Cancels the run in flight, if any (sign-out, or the controller stopping). The change being
    /// sent stays queued and is resent unchanged next time; the status is not marked failed.
    public func cancelCurrentRun() {
        running?.cancel()
    }

    // MARK: - One run

    private func run() async -> SyncReport {
        var report = SyncReport()
        var record: SyncRunRecord
        do {
            record = try await records.runRecord()
        } catch {
            // Without its status row the database is unusable; say so rather than sync blind.
            report.failure = Self.failure(from: error)
            return report
        }
        record.isSyncing = true
        await recordRun(record)
        do {
            let caughtUp = try await pushAll(&report)
            if !caughtUp { try await pullAll(&report) }
            record.lastSyncedAt = now()
            record.lastRunFailed = false
            record.lastError = nil
            record.lastFailureKind = nil
        } catch  where Task.isCancelled {
            // Stopped on purpose: not a failure to show; the next run picks up where this stopped.
            report.failure = SyncFailure(kind: .transient, message: "Sync was stopped.")
        } catch {
            let failure = Self.failure(from: error)
            report.failure = failure
            record.lastRunFailed = true
            record.lastError = failure.message
            record.lastFailureKind = failure.kind
        }
        record.metrics.record(report)
        for latency in acknowledgementLatencies { record.metrics.recordAcknowledgement(latency: latency) }
        acknowledgementLatencies = []
        if report.fullResync { record.undecryptableCount = 0 }
        record.undecryptableCount += report.undecryptable
        record.isSyncing = false
        await recordRun(record)
        return report
    }

    /// The status row is informational: failing to write it must not fail the sync itself.
    private func recordRun(_ record: SyncRunRecord) async {
        do {
            try await records.recordRun(record)
        } catch {
            // The next run writes it again; the notes and changes are untouched by this failure.
        }
    }

    // MARK: - Push

    /// Pushes every pending change. Returns true when the feed is known to hold nothing but this
    /// device's own writes since its cursor (each put's `previousCursor` was the position the one
    /// before left), in which case the cursor has moved past them and no pull is needed.
    private func pushAll(_ report: inout SyncReport) async throws -> Bool {
        let start = try await records.cursor()
        var chain = start
        var pushedAny = false
        while true {
            try Task.checkCancellation()
            let batch = try await records.nextChanges(limit: batchLimit)
            if batch.isEmpty { break }
            let answers: [Result<WriteOutcome, NotesAPIError>]
            if batch.count == 1 {
                answers = [try await sendAlone(batch[0])]
            } else {
                do {
                    answers = try await sendTogether(batch)
                } catch let error as NotesAPIError where error.kind == .refused {
                    // The batch as a whole was refused (too large, or a server without the route):
                    // send its changes one by one, so one change the server will not take does not
                    // hold back the others. Nothing of a refused batch was applied.
                    var alone: [Result<WriteOutcome, NotesAPIError>] = []
                    for change in batch { alone.append(try await sendAlone(change)) }
                    answers = alone
                }
            }
            for (change, answer) in zip(batch, answers) {
                switch answer {
                case .failure(let error):
                    guard error.kind == .refused else { throw error }
                    try await records.markRefused(change.id, reason: error.message)
                    report.refused += 1
                    chain = nil
                case .success(.accepted(let version, let feed)):
                    try await records.complete(change.id, version: version)
                    report.pushed += 1
                    pushedAny = true
                    chain = feed.flatMap { $0.previous == chain ? $0.next : nil }
                    if let createdAt = change.createdAt {
                        acknowledgementLatencies.append(now().timeIntervalSince(createdAt))
                    }
                case .success(.conflict(let serverCopy)):
                    chain = nil
                    try await settle(change, serverCopy: serverCopy, report: &report)
                }
            }
        }
        guard pushedAny, start != nil, let caughtUp = chain else { return false }
        try await records.apply([], cursor: caughtUp, account: account)
        return true
    }

    /// One change on its single route; a refusal is an answer, any other failure is thrown.
    private func sendAlone(_ change: SentChange) async throws -> Result<WriteOutcome, NotesAPIError> {
        do {
            return .success(try await send(change))
        } catch let error as NotesAPIError where error.kind == .refused {
            return .failure(error)
        }
    }

    private func send(_ change: SentChange) async throws -> WriteOutcome {
        switch change.operation {
        case .put(let content):
            let payload = try await frozenPayload(change, content)
            return try await api.put(
                change.noteID, payload: payload, baseVersion: change.baseVersion, change: change.id)
        case .delete:
            // The server never confirmed this note, so there is nothing there to delete.
            guard let base = change.baseVersion else { return .accepted(version: nil) }
            do {
                return try await api.delete(change.noteID, baseVersion: base, change: change.id)
            } catch let error as NotesAPIError where error.status == 404 {
                return .accepted(version: nil)
            }
        }
    }

    /// Sends several changes (one per note) in one request and one server transaction. A delete
    /// the server never saw is answered here; a delete of a note the server no longer has counts
    /// as done, as on the single route.
    private func sendTogether(_ batch: [SentChange]) async throws -> [Result<WriteOutcome, NotesAPIError>] {
        var items: [BatchChangeDTO] = []
        var positions: [Int] = []
        var answers = [Result<WriteOutcome, NotesAPIError>](
            repeating: .success(.accepted(version: nil)), count: batch.count)
        for (index, change) in batch.enumerated() {
            switch change.operation {
            case .put(let content):
                let payload = try await frozenPayload(change, content)
                items.append(
                    BatchChangeDTO(
                        op: "put", id: change.noteID.description, idempotencyKey: change.id.description,
                        payload: payload, baseVersion: change.baseVersion))
                positions.append(index)
            case .delete:
                guard let base = change.baseVersion else { continue }
                items.append(
                    BatchChangeDTO(
                        op: "delete", id: change.noteID.description,
                        idempotencyKey: change.id.description, payload: nil, baseVersion: base))
                positions.append(index)
            }
        }
        guard !items.isEmpty else { return answers }
        for (position, answer) in zip(positions, try await api.batch(items)) {
            if case .failure(let error) = answer, error.status == 404, case .delete = batch[position].operation {
                answers[position] = .success(.accepted(version: nil))
            } else {
                answers[position] = answer
            }
        }
        return answers
    }

    /// The change's sealed payload: the one stored at its first send, or sealed and stored now,
    /// before it is sent, so a resend after a lost reply is byte-identical.
    private func frozenPayload(_ change: SentChange, _ content: NoteContent) async throws -> String {
        if let frozen = change.payload { return frozen }
        let payload = try codec.seal(content, noteID: change.noteID)
        try await records.freezePayload(change.id, payload: payload)
        return payload
    }

    // MARK: - Conflicts

    private func settle(_ change: SentChange, serverCopy: NoteChangeDTO, report: inout SyncReport)
        async throws
    {
        let server: RemoteNote
        do {
            server = try remoteNote(from: serverCopy)
        } catch {
            // Without the server's text there is nothing safe to decide: keep ours, stop sending it.
            report.undecryptable += 1
            try await records.markRefused(
                change.id, reason: "The server's copy of this note could not be decrypted.")
            report.refused += 1
            return
        }
        // A save can land between reading the context and settling: read again and decide again.
        for _ in 0..<8 {
            let context = try await records.conflictContext(for: change.id)
            let serverSide: Side = server.content.map { .edited($0.text) } ?? .deleted
            let resolution = policy.resolve(base: context.base, local: context.local, server: serverSide)
            let settlement = Self.settlement(
                for: resolution, change: change, context: context, server: server)
            do {
                try await records.settleConflict(settlement)
            } catch  where NotesDatabaseError.isKind(.staleConflict, error) {
                continue
            }
            switch resolution {
            case .merged: report.merged += 1
            case .keepBoth: report.conflictCopies += 1
            case .recreate, .keepServer: report.editsBeatDeletes += 1
            case .alreadyEqual, .bothDeleted: report.pushed += 1
            }
            return
        }
        throw SyncFailure(kind: .transient, message: "The note kept changing while syncing it.")
    }

    /// Turns the policy's answer into the database write. Pure.
    static func settlement(
        for resolution: ConflictResolution, change: SentChange, context: ConflictContext,
        server: RemoteNote
    ) -> ConflictSettlement {
        var outcome = ConflictSettlement.Outcome.takeServer
        var copy: (id: NoteID, content: NoteContent)?
        switch resolution {
        case .alreadyEqual, .keepServer, .bothDeleted:
            outcome = .takeServer
        case .merged(let text):
            outcome = .push(
                NoteContent(title: text.title, body: text.body, conflictOf: context.conflictOf))
        case .recreate:
            if case .edited(let text) = context.local {
                outcome = .push(
                    NoteContent(title: text.title, body: text.body, conflictOf: context.conflictOf))
            }
        case .keepBoth(let copyText):
            outcome = .takeServer
            copy = (
                NoteID(),
                NoteContent(
                    title: copyText.title, body: copyText.body,
                    conflictOf: context.conflictOf ?? change.noteID)
            )
        }
        return ConflictSettlement(
            change: change.id, server: server, outcome: outcome, copy: copy,
            expectedRevision: context.revision)
    }

    // MARK: - Pull

    private func pullAll(_ report: inout SyncReport) async throws {
        var cursor = try await records.cursor()
        while true {
            try Task.checkCancellation()
            let page: ChangesPageDTO
            do {
                page = try await api.changes(since: cursor, limit: pageLimit, wait: 0)
            } catch let error as NotesAPIError where error.kind == .cursorExpired && !report.fullResync {
                // Offline longer than the server keeps tombstones: start over, keeping what's pending.
                try await records.beginFullResync()
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
            progressHandler?(SyncProgress(received: report.received, finished: !page.hasMore))
            if !page.hasMore { break }
        }
        // Also finishes a resync an earlier run began and a failure or crash interrupted: its
        // pages confirmed notes, and notes it never listed must go, or they outlive their delete.
        try await records.finishFullResync()
    }

    private func remoteNote(from dto: NoteChangeDTO) throws -> RemoteNote {
        guard let id = NoteID(dto.id) else {
            throw NotesAPIError(kind: .invalidResponse, message: "The server sent a bad note id.")
        }
        guard !dto.deleted else {
            return RemoteNote(id: id, version: dto.version, updatedAt: dto.updatedAt, content: nil)
        }
        guard let payload = dto.payload else {
            throw PayloadError(noteID: id, reason: "no payload")
        }
        let content = try codec.open(payload, noteID: id)
        return RemoteNote(id: id, version: dto.version, updatedAt: dto.updatedAt, content: content)
    }

    // MARK: - Failures

    static func failure(from error: Error) -> SyncFailure {
        switch error {
        case let failure as SyncFailure:
            return failure
        case let api as NotesAPIError:
            switch api.kind {
            case .unauthorized:
                return SyncFailure(kind: .signedOut, message: "Signed out: sign in again to sync.")
            case .unreachable:
                return SyncFailure(kind: .unreachable, message: api.message)
            default:
                return SyncFailure(kind: .transient, message: api.description, retryAfter: api.retryAfter)
            }
        case is CancellationError:
            return SyncFailure(kind: .transient, message: "Sync was cancelled.")
        case let database as NotesDatabaseError:
            return SyncFailure(kind: .storage, message: "Local database: \(database.message)")
        case let sqlite as SQLiteError:
            return SyncFailure(kind: .storage, message: "Local database: \(sqlite.message)")
        default:
            return SyncFailure(kind: .storage, message: "\(error)")
        }
    }
}
