import Foundation
import QuireTrips
import QuireWire

// MARK: - Push

extension TripsSyncEngine {
    /// The most requests one trip sends in one run (a merge queues one more; a companion who keeps
    /// writing the same field cannot keep the run going).
    static let requestsPerTripAndRun = 50

    /// Pushes every trip's waiting changes, trip by trip (the trip of the oldest change first),
    /// creating on the server the trips it does not have yet.
    ///
    /// A request whose send fails in a way that may pass is counted against its ops
    /// (``ChangeRetry``) and the next trip goes on; two such failures in a row end the push, and
    /// the run still reports the failure at its end.
    func pushAll(_ report: inout SyncReport) async throws {
        var failuresInARow = 0
        var deletedMeanwhile: Set<TripID> = []
        defer { report.fieldConflicts += deletedMeanwhile.count }
        for target in try await database.tripsToPush() where !setAside.contains(target.trip) {
            try Task.checkCancellation()
            if !target.onServer {
                do {
                    try await api.createTrip(target.trip, wrappedKey: try keys.wrap(target.key, trip: target.trip))
                    try await database.markOnServer(target.trip)
                } catch let error as NotesAPIError {
                    if Self.serverKeepsNoTrips(error) {
                        throw SyncFailure(kind: .transient, message: Self.noTripsOnServer)
                    }
                    try await handleFailure(error, ofTrip: target.trip, &failuresInARow, &report)
                    setAside.insert(target.trip)
                    continue
                }
            }
            do {
                // A removal the restored server forgot is made again, and a key a member's
                // leaving left due is rotated, before anything is sent.
                try await finishKeyWork(on: target.trip, &report)
            } catch var error as NotesAPIError {
                // The work is tried again by the next run; the trip's changes wait for it and
                // are never refused for it.
                if error.kind == .refused || error.kind == .invalidResponse { error.kind = .transient }
                try await handleFailure(error, ofTrip: target.trip, &failuresInARow, &report)
                setAside.insert(target.trip)
                continue
            }
            var sealer = try await sealer(for: target.trip, fallback: target.key)
            for _ in 0..<Self.requestsPerTripAndRun {
                try Task.checkCancellation()
                // A pull checks the positions of the acknowledged requests first.
                if try await database.uncheckedPositions(target.trip).count >= WireRoutes.maxKnownPositions { break }
                guard
                    let request = try await database.nextRequest(
                        for: target.trip, limit: opsLimit, bodyLimit: bodyLimit)
                else { break }
                let response: TripOpsResponseDTO
                do {
                    let request = try await resealedIfItsKeyWasReplaced(request, with: sealer)
                    var dto = request.dto
                    dto.keyCheck = TripKeyCheck.text(for: request, keyring: sealer.keyring)
                    let history = try await database.historyToCheck(target.trip)
                    response = try await api.send(dto, to: target.trip, cursor: history.cursor, known: history.known)
                } catch let error as NotesAPIError where error.code == "invalid_cursor" {
                    // The bases are revisions of a history the server no longer has (restored
                    // from a backup): resync, which puts the waiting ops on the new history's.
                    report.fullResync = true
                    try await pullSnapshot(target.trip, sealer: sealer, serverForgot: true, &report)
                    sealer = try await self.sealer(for: target.trip, fallback: target.key)
                    continue
                } catch let error as NotesAPIError where error.code == "trip_key_rotated" {
                    // A member left and the key rotated: take the new key, seal again, resend.
                    if let caughtUp = try await catchUpWithKey(
                        of: target.trip, request: request, fallback: target.key, &report)
                    {
                        sealer = caughtUp
                        continue
                    }
                    try await handleFailure(error, of: request, &failuresInARow, &report)
                    setAside.insert(target.trip)
                    break
                } catch let error as NotesAPIError {
                    if Self.noSuchTrip(error), try await database.serverForgotTrip(target.trip) {
                        // Made again, then this request resent, by the run's second push.
                        report.reuploaded += 1
                        break
                    }
                    try await handleFailure(error, of: request, &failuresInARow, &report)
                    setAside.insert(target.trip)
                    break
                }
                failuresInARow = 0
                let answers = zip(request.ops, response.results).map { op, result in
                    Self.answer(op, result, sealer: sealer, &report)
                }
                let settled = try await database.settle(
                    request, answers: answers, position: response.position.map(Cursor.init))
                for (outcome, answer) in zip(settled, answers) {
                    switch outcome {
                    case .applied, .conflict(.same): report.pushed += 1
                    case .rejected where answer == .rejected(reason: TripMergeRule.tripDeletedReason):
                        // The trip was deleted: its changes become one offer to restore it.
                        deletedMeanwhile.insert(target.trip)
                    case .rejected: report.refused += 1
                    case .conflict(.merged): report.merged += 1
                    case .conflict(.asked), .conflict(.deleteWon): report.fieldConflicts += 1
                    }
                }
            }
        }
    }

    /// What the server's result means for the op, its value opened with the trip key. A conflict
    /// whose server value does not open leaves nothing safe to decide: the op is kept, not sent.
    static func answer(
        _ op: TripsStoredOp, _ result: TripOpResultDTO, sealer: TripSealer, _ report: inout SyncReport
    ) -> TripsDatabase.OpAnswer {
        switch result.status {
        case .applied:
            guard let revision = result.revision else {
                return .rejected(reason: "The server applied this change without a revision.")
            }
            return .applied(revision: revision)
        case .conflict:
            let field = result.conflictField ?? op.field
            do {
                let value = try sealer.open(result.serverValue, item: op.item, field: field)
                return .conflict(field: field, value: value, revision: result.serverRevision ?? 0)
            } catch {
                report.undecryptable += 1
                return .rejected(reason: "The server's value of this field could not be decrypted.")
            }
        case .rejected:
            return .rejected(reason: result.reason ?? "The server refused this change.")
        }
    }

    /// A request that got no usable answer: refused as a whole (every op keeps its value, with
    /// the reason), retried later (its ops back off, the request stays frozen), or the run ends.
    private func handleFailure(
        _ error: NotesAPIError, of request: TripOpsRequest, _ failuresInARow: inout Int, _ report: inout SyncReport
    ) async throws {
        switch SendDisposition(error) {
        case .refuse:
            try await database.rejectRequest(request.opID, reason: error.message)
            report.refused += request.ops.count
        case .retryLater:
            try await database.recordFailedAttempt(request.opID, error: error.description)
            report.deferred += request.ops.count
            deferredFailure = error
            failuresInARow += 1
            if failuresInARow >= 2 { throw error }
        case .stopRun:
            throw error
        }
    }

    /// A trip's creation that got no usable answer: refused (another account holds the id: its
    /// changes are kept, not sent), retried later, or the run ends.
    private func handleFailure(
        _ error: NotesAPIError, ofTrip trip: TripID, _ failuresInARow: inout Int, _ report: inout SyncReport
    ) async throws {
        switch SendDisposition(error) {
        case .refuse:
            report.refused += try await database.rejectWaitingChanges(of: trip, reason: error.message)
        case .retryLater:
            deferredFailure = error
            report.deferred += 1
            failuresInARow += 1
            if failuresInARow >= 2 { throw error }
        case .stopRun:
            throw error
        }
    }
}
