import Foundation
import QuireDomain
import QuireWire

// MARK: - Push

extension NotesSyncEngine {
    /// A change handed out by the database with what goes on the wire: its frozen sealed payload
    /// (nil for a delete).
    struct Outgoing {
        var change: SentChange
        var payload: String?

        /// What the change adds to a request body, roughly: the payload and the JSON around it.
        var size: Int { (payload?.utf8.count ?? 0) + 256 }
    }

    /// The most conflicts one note may meet in one run before the run ends (see `pushAll`).
    static let maxConflictsPerNote = 8

    /// How a push ended.
    enum PushEnd: Equatable {
        /// Everything was sent, and the feed is known to hold nothing but this device's own
        /// writes since its cursor (each put's `previousCursor` was the position the one before
        /// left): the cursor moved past them and no pull is needed.
        case caughtUp
        /// Everything was sent (or set aside); a pull follows.
        case sent
        /// As many acknowledged positions wait for a pull to check them as one pull can carry:
        /// a pull must check them before more is sent.
        case positionsToCheck
    }

    /// Pushes every pending change (see ``PushEnd``).
    ///
    /// Each request's last acknowledged write position is kept for the next pull to check
    /// (``PullRecords/ackedPositions()``); the cursor moves by the writes' own feed steps only when
    /// no earlier position waits to be checked, since the steps show only the restored history.
    ///
    /// A change whose send fails in a way that may pass is counted against that change
    /// (``ChangeRetry``) and the others go on; two such failures in a row end the push (the
    /// server itself is unwell), and the run still reports the failure at its end.
    func pushAll(_ report: inout SyncReport) async throws -> PushEnd {
        let start = try await records.cursor()
        var unchecked = try await records.ackedPositions().unverified.count
        let mayMoveCursor = unchecked == 0
        let pushedBefore = report.pushed
        let toSend = progressHandler == nil ? 0 : await pendingNow()
        var reported = 0
        var chain = start
        var pushedAny = false
        var skipping: Set<ChangeID> = []
        var reissued: Set<ChangeID> = []
        var failuresInARow = 0
        var conflictsByNote: [NoteID: Int] = [:]
        var alone = false
        while true {
            try Task.checkCancellation()
            if unchecked >= WireRoutes.maxKnownPositions - 1 { return .positionsToCheck }
            let handedOut = try await records.nextChanges(
                limit: alone ? 1 : batchLimit, skipping: skipping)
            if handedOut.isEmpty { break }
            let group = try await prepare(alone ? [handedOut[0]] : handedOut, report: &report)
            if group.isEmpty { continue }
            let answers: [Result<WriteOutcome, NotesAPIError>]
            do {
                answers = try await send(group)
            } catch let error as NotesAPIError
                where group.count > 1 && SendDisposition(error) != .stopRun
            {
                // The batch as a whole was refused (too large, a server without the route) or
                // failed: send its changes one by one, so one change cannot hold back the others.
                // Nothing of a refused batch was applied; a failed one is resent unchanged.
                alone = true
                continue
            }
            // One request is one server transaction, in one history: its last position stands
            // for all of its writes.
            let lastPositioned = answers.lastIndex {
                if case .success(.accepted(_, .some, _, _)) = $0 { true } else { false }
            }
            if lastPositioned != nil { unchecked += 1 }
            for (index, (outgoing, answer)) in zip(group, answers).enumerated() {
                let change = outgoing.change
                switch answer {
                case .success(.accepted(let version, let feed, let tag, let replayed)):
                    failuresInARow = 0
                    try await records.complete(
                        change.id, version: version, tag: tag,
                        position: index == lastPositioned ? feed?.next : nil, replayed: replayed)
                    report.pushed += 1
                    pushedAny = true
                    chain = feed.flatMap { $0.previous == chain ? $0.next : nil }
                    if let createdAt = change.createdAt {
                        acknowledgementLatencies.append(now().timeIntervalSince(createdAt))
                    }
                case .success(.conflict(let serverCopy, let baseKnown)):
                    failuresInARow = 0
                    chain = nil
                    conflictsByNote[change.noteID, default: 0] += 1
                    guard conflictsByNote[change.noteID, default: 0] <= Self.maxConflictsPerNote
                    else {
                        // Settling should leave the next send on the server's version; a server
                        // that answers it with a conflict again and again must not hold the run
                        // forever. Its text stays queued for the next run.
                        throw SyncFailure(
                            kind: .transient,
                            message: "The server kept answering note \(change.noteID) with a conflict.")
                    }
                    try await settle(
                        change, serverCopy: serverCopy, baseKnown: baseKnown, report: &report)
                case .failure(let error):
                    chain = nil
                    switch SendDisposition(error) {
                    case .refuse
                    where error.code == "idempotency_key_reused"
                        && !reissued.contains(change.id):
                        // The server holds this change id with other bytes (sealed by another
                        // process before the run lock existed, or a resend that lost its frozen
                        // payload). Resend under a new id: the conditional write then meets what
                        // the server has, and the conflict policy settles it without a copy.
                        reissued.insert(try await records.reissue(change.id))
                    case .refuse:
                        try await records.markRefused(change.id, reason: error.message)
                        report.refused += 1
                        // A refused delete brings its note back and lists every note again.
                        if case .delete = change.operation { report.fullResync = true }
                    case .retryLater:
                        try await records.recordFailedAttempt(change.id, error: error.description)
                        skipping.insert(change.id)
                        report.deferred += 1
                        deferredFailure = error
                        failuresInARow += 1
                        if failuresInARow >= 2 { throw error }
                    case .stopRun:
                        throw error
                    }
                }
            }
            let sent = report.pushed - pushedBefore
            if sent > reported {
                reported = sent
                progressHandler?(
                    SyncProgress(phase: .sending, done: sent, total: max(toSend, sent), finished: sent >= toSend))
            }
        }
        guard pushedAny, start != nil, mayMoveCursor, let caughtUp = chain else { return .sent }
        try await records.apply([], cursor: caughtUp, account: account)
        // Each write followed the one before in the feed, from this device's cursor: the server
        // holds them all in the history the cursor is from.
        try await records.positionsVerified(through: nil)
        return .caughtUp
    }

    /// How many changes are pending now (the first value the count stream replays).
    private func pendingNow() async -> Int {
        for await count in records.pendingCount() { return count }
        return 0
    }

    /// Seals (or takes the frozen bytes of) each change, in order, as many as fit in one request
    /// body; the rest stay in flight for the next request. A change too large for any request is
    /// refused here, never sent, with a reason that says what to do.
    private func prepare(_ changes: [SentChange], report: inout SyncReport) async throws -> [Outgoing] {
        var group: [Outgoing] = []
        var bytes = 512
        for change in changes {
            var outgoing = Outgoing(change: change, payload: nil)
            if case .put(let content) = change.operation {
                let sealed: String
                if let frozen = change.payload {
                    sealed = frozen
                } else {
                    sealed = try codec.seal(
                        content.typed(on: try await records.deviceLabel()), noteID: change.noteID)
                }
                outgoing.payload = sealed
                if outgoing.size + 512 > bodyLimit {
                    try await records.markRefused(change.id, reason: Self.tooLarge(sealed.utf8.count, limit: bodyLimit))
                    report.refused += 1
                    continue
                }
                if change.payload == nil {
                    // Another process may have frozen it first: send what is stored, never our own.
                    outgoing.payload = try await records.freezePayload(change.id, payload: sealed)
                }
            }
            if !group.isEmpty, bytes + outgoing.size > bodyLimit { break }
            bytes += outgoing.size
            group.append(outgoing)
        }
        return group
    }

    static func tooLarge(_ bytes: Int, limit: Int) -> String {
        func megabytes(_ value: Int) -> String {
            String(format: "%.1f MB", Double(value) / 1_048_576)
        }
        return "This note is too large to sync (\(megabytes(bytes)) encrypted; the server takes at most "
            + "\(megabytes(limit))). Shorten it or split it into several notes; it stays on this "
            + "device until then."
    }

    /// One request for the group: the single route for one change, the batch route for several.
    /// A failure of one change on the single route is its answer; a failure of the whole batch
    /// request is thrown.
    private func send(_ group: [Outgoing]) async throws -> [Result<WriteOutcome, NotesAPIError>] {
        if group.count == 1 { return [try await sendAlone(group[0])] }
        return try await sendTogether(group)
    }

    private func sendAlone(_ outgoing: Outgoing) async throws -> Result<WriteOutcome, NotesAPIError> {
        let change = outgoing.change
        do {
            switch change.operation {
            case .put:
                return .success(
                    try await api.put(
                        change.noteID, payload: outgoing.payload ?? "", baseVersion: change.baseVersion,
                        baseVersionTag: change.baseVersionTag, change: change.id))
            case .delete:
                // The server never confirmed this note, so there is nothing there to delete.
                guard let base = change.baseVersion else { return .success(.accepted(version: nil)) }
                do {
                    return .success(
                        try await api.delete(
                            change.noteID, baseVersion: base, baseVersionTag: change.baseVersionTag,
                            change: change.id))
                } catch let error as NotesAPIError where error.status == 404 {
                    return .success(.accepted(version: nil))
                }
            }
        } catch let error as NotesAPIError {
            return .failure(error)
        }
    }

    /// Sends several changes (one per note) in one request and one server transaction. A delete
    /// the server never saw is answered here; a delete of a note the server no longer has counts
    /// as done, as on the single route.
    private func sendTogether(_ group: [Outgoing]) async throws -> [Result<WriteOutcome, NotesAPIError>] {
        var items: [BatchChangeDTO] = []
        var positions: [Int] = []
        var answers = [Result<WriteOutcome, NotesAPIError>](
            repeating: .success(.accepted(version: nil)), count: group.count)
        for (index, outgoing) in group.enumerated() {
            let change = outgoing.change
            switch change.operation {
            case .put:
                items.append(
                    BatchChangeDTO(
                        op: "put", id: change.noteID.description, idempotencyKey: change.id.description,
                        payload: outgoing.payload, baseVersion: change.baseVersion,
                        baseVersionTag: change.baseVersion == nil ? nil : change.baseVersionTag))
                positions.append(index)
            case .delete:
                guard let base = change.baseVersion else { continue }
                items.append(
                    BatchChangeDTO(
                        op: "delete", id: change.noteID.description,
                        idempotencyKey: change.id.description, payload: nil, baseVersion: base,
                        baseVersionTag: change.baseVersionTag))
                positions.append(index)
            }
        }
        guard !items.isEmpty else { return answers }
        for (position, answer) in zip(positions, try await api.batch(items)) {
            if case .failure(let error) = answer, error.status == 404, case .delete = group[position].change.operation {
                answers[position] = .success(.accepted(version: nil))
            } else {
                answers[position] = answer
            }
        }
        return answers
    }
}
