import Foundation
import QuireWire

// MARK: - POST /v1/notes/batch

extension NotesServer {
    /// Applies several changes in order, in one storage transaction (one flush to disk), each with
    /// exactly its single route's rules and idempotency: its fingerprint is that of the equivalent
    /// single request, so a change may be sent in a batch and resent alone, or the other way round.
    ///
    /// The whole batch is refused (400, nothing stored) when any item is malformed.
    ///
    /// Each change's answer is built after the batch's write, off the store's writer, as on the
    /// single routes (the record keeps a saved change's facts: ``RecordedAnswer``). The changes of
    /// one batch follow each other in the account's feed, so a change's previous position is
    /// usually the one the change before it was answered with, sealed once for both.
    func batch(_ request: HTTPRequest, session: AuthenticatedSession) async throws -> HTTPResponse {
        let items = try Self.batchItems(request.body)
        let seal = try await cursorSeal()
        let account = session.account
        let results = try await storage.writeBatch(
            items.map { ($0.write, $0.idempotency) }, account: session.account,
            writer: session.session, quota: configuration.noteQuota, now: now(), record: RecordedAnswer.of)
        var answers = BatchAnswers(seal: seal, account: account)
        var changedFeed = false
        for result in results {
            switch result {
            case .keyReused:
                answers.results.append(Self.batchResult(.error(.idempotencyKeyReused)))
            case .replayed(.saved(let version, let position, let previous)):
                answers.add(.saved(version: version, position: position, previous: previous), replayed: true)
            case .replayed(.response(let recorded)):
                var answer = Self.batchResult(status: recorded.status, body: recorded.body)
                answer.replayed = true
                answers.results.append(answer)
            case .applied(let outcome):
                changedFeed = changedFeed || outcome.changedFeed
                answers.add(outcome)
            }
        }
        if changedFeed { await liveUpdates.accountChanged(session.account, feed: .notes) }
        return .json(200, body: BatchResponseDTO(results: answers.results).wireJSON)
    }

    /// A batch's results in order, and the position sealed last.
    private struct BatchAnswers {
        let seal: CursorSeal
        let account: AccountID
        var results: [BatchResultDTO] = []
        private var lastSealed: (position: FeedPosition, text: String)?

        init(seal: CursorSeal, account: AccountID) {
            self.seal = seal
            self.account = account
        }

        /// Adds `outcome`'s result: a saved change's fields as they are, any other as its single
        /// route's answer.
        mutating func add(_ outcome: NoteWriteOutcome, replayed: Bool = false) {
            guard case .saved(let version, let position, let previous) = outcome else {
                let response = NotesServer.response(for: outcome, seal: seal, account: account)
                results.append(NotesServer.batchResult(response))
                return
            }
            let answer = NotesServer.savedAnswer(version: version, position: position, previous: previous) {
                position in
                if let lastSealed, lastSealed.position == position { return lastSealed.text }
                let text = ChangeCursor(position: position).text(seal: seal, scope: .notes(account))
                lastSealed = (position, text)
                return text
            }
            var result = BatchResultDTO(
                status: 200, version: answer.version, cursor: answer.cursor,
                previousCursor: answer.previousCursor, versionTag: answer.versionTag)
            if replayed { result.replayed = true }
            results.append(result)
        }
    }

    private struct BatchItem {
        var write: NoteWrite
        var idempotency: IdempotencyKey
    }

    private static func batchItems(_ body: Data) throws -> [BatchItem] {
        let request: BatchRequestDTO
        do {
            // Read directly where the body is plain (a device's own), by JSONDecoder where not.
            request =
                try BatchRequestDTO(directJSON: body)
                ?? WireJSON.decoder().decode(BatchRequestDTO.self, from: body)
        } catch {
            throw APIError.invalidRequest(
                "the body must be {\"changes\": [{op, id, idempotencyKey, payload?, baseVersion?}]}")
        }
        guard (1...WireRoutes.maxBatchSize).contains(request.changes.count) else {
            throw APIError.invalidRequest("a batch holds 1 to \(WireRoutes.maxBatchSize) changes")
        }
        return try request.changes.enumerated().map { index, change in
            let id = try RequestValidation.noteID(change.id)
            guard (1...200).contains(change.idempotencyKey.count) else {
                throw APIError.invalidRequest("changes[\(index)].idempotencyKey must be 1 to 200 characters")
            }
            // The equivalent single request, for the idempotency fingerprint.
            let single: HTTPRequest
            let write: NoteWrite
            switch change.op {
            case "put":
                guard let payload = change.payload, !payload.isEmpty else {
                    throw APIError.invalidRequest("changes[\(index)].payload must be a non-empty string")
                }
                if let base = change.baseVersion, base < 1 {
                    throw APIError.invalidRequest("changes[\(index)].baseVersion must be 1 or more, or null")
                }
                let tag = try RequestValidation.versionTag(
                    change.baseVersionTag, name: "changes[\(index)].baseVersionTag")
                write = .put(
                    noteID: id, payload: payload,
                    base: change.baseVersion.map { BaseVersion(number: $0, tag: tag) })
                single = HTTPRequest(
                    method: "PUT", path: WireRoutes.note(change.id),
                    body: PutNoteRequestDTO(
                        payload: payload, baseVersion: change.baseVersion, baseVersionTag: change.baseVersionTag
                    ).wireJSON)
            case "delete":
                guard let base = change.baseVersion, base >= 1 else {
                    throw APIError.invalidRequest("changes[\(index)].baseVersion must be 1 or more for a delete")
                }
                let tag = try RequestValidation.versionTag(
                    change.baseVersionTag, name: "changes[\(index)].baseVersionTag")
                write = .delete(noteID: id, base: BaseVersion(number: base, tag: tag))
                var query = ["baseVersion": "\(base)"]
                if let tagText = change.baseVersionTag { query["baseVersionTag"] = tagText }
                single = HTTPRequest(
                    method: "DELETE", path: WireRoutes.note(change.id), query: query)
            default:
                throw APIError.invalidRequest("changes[\(index)].op must be put or delete")
            }
            return BatchItem(
                write: write,
                idempotency: IdempotencyKey(
                    key: change.idempotencyKey, fingerprint: RequestValidation.fingerprint(single)))
        }
    }

    static func batchResult(_ response: HTTPResponse) -> BatchResultDTO {
        batchResult(status: response.status, body: response.body)
    }

    /// A single route's answer, as a batch result.
    private static func batchResult(status: Int, body: Data) -> BatchResultDTO {
        let decoder = WireJSON.decoder()
        var result = BatchResultDTO(status: status)
        switch status {
        case 200..<300:
            if let answer = try? decoder.decode(PutNoteResponseDTO.self, from: body) {
                result.version = answer.version
                result.cursor = answer.cursor
                result.previousCursor = answer.previousCursor
                result.versionTag = answer.versionTag
            }
        case 409:
            let conflict = try? decoder.decode(ConflictResponseDTO.self, from: body)
            result.note = conflict?.note
            result.baseKnown = conflict?.baseKnown
        default:
            result.error = try? decoder.decode(ErrorResponseDTO.self, from: body).error
        }
        return result
    }
}
