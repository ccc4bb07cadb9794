import Foundation
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
            let sealer = TripSealer(trip: target.trip, key: target.key)
            for _ in 0..<Self.requestsPerTripAndRun {
                try Task.checkCancellation()
                guard
                    let request = try await database.nextRequest(
                        for: target.trip, limit: opsLimit, bodyLimit: bodyLimit)
                else { break }
                let response: TripOpsResponseDTO
                do {
                    response = try await api.send(request.dto, to: target.trip)
                } catch let error as NotesAPIError {
                    try await handleFailure(error, of: request, &failuresInARow, &report)
                    setAside.insert(target.trip)
                    break
                }
                failuresInARow = 0
                for (op, result) in zip(request.ops, response.results) {
                    try await settle(op, result, sealer: sealer, &report)
                }
            }
        }
    }

    /// What one op's result does to it.
    private func settle(
        _ op: TripsStoredOp, _ result: TripOpResultDTO, sealer: TripSealer, _ report: inout SyncReport
    ) async throws {
        switch result.status {
        case .applied:
            guard let revision = result.revision else {
                try await database.markRejected(op.seq, reason: "The server applied this change without a revision.")
                report.refused += 1
                return
            }
            try await database.confirmApplied(op.seq, revision: revision)
            report.pushed += 1
        case .conflict:
            let field = result.conflictField ?? op.field
            let value: String?
            do {
                value = try sealer.open(result.serverValue, item: op.item, field: field)
            } catch {
                // Without the server's value there is nothing safe to decide: keep ours, unsent.
                report.undecryptable += 1
                try await database.markRejected(
                    op.seq, reason: "The server's value of this field could not be decrypted.")
                report.refused += 1
                return
            }
            let outcome = try await database.settleConflict(
                op.seq, field: field, value: value, revision: result.serverRevision ?? 0)
            switch outcome {
            case .merged: report.merged += 1
            case .asked, .deleteWon: report.fieldConflicts += 1
            case .same: report.pushed += 1
            }
        case .rejected:
            try await database.markRejected(op.seq, reason: result.reason ?? "The server refused this change.")
            report.refused += 1
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
