import Foundation
import QuireClient
import QuireDomain
import QuireServer

/// One account's notes on a real SQLite server store, edited on a simulated calendar: every note
/// edited `editsPerDay` times a day for `days` days, and, when `prunes`, the server's pruning and
/// tombstone purge run each night at 03:00 as `quire-server` runs them (its default retention).
///
/// Writes go through the store's own write path (`SQLiteServerStorage.writeBatch`, as the batch
/// route calls it): each edit of a note is a put on its current version that keeps the replaced
/// payload in `note_versions`. One batch holds one edit of every note (one transaction, one
/// fsync), and no idempotency answer is recorded (those rows are not history). Each payload is
/// the note's edited text sealed afresh with the client's codec.
///
/// With `widenTo`, the last night first copies the notes to that many (``HistoryWidening``), so
/// the last pass, the account cap and the footprint see the full account.
struct HistorySimulation {
    var notes: Int
    var days: Int
    var editsPerDay: Int
    var prunes: Bool
    var widenTo: Int?

    struct Result {
        var footprint: HistoryFootprint
        /// Notes in the file at the end (after any widening).
        var notes: Int
        /// The nightly passes before the last (`NotesServer.pruneHistory`, 32 notes a step), on
        /// the notes written.
        var nightlyPasses = Samples()
        /// The last night's pass, on the whole (widened) account, and one right after it with
        /// nothing left to prune.
        var lastPass: Duration?
        var idlePass: Duration?
        var pruned = 0
        /// The account's stored payload characters just before the last pass.
        var payloadBeforeLastPass = 0
        var writeTime = Duration.zero
        var writes = 0
    }

    /// Runs the calendar on a new store in `directory` and measures its history. Throws when a
    /// write is not saved as the next version of its note.
    func run(directory: URL, corpus: NoteCorpus, codec: BenchCodec, label: String) async throws -> Result {
        let path = directory.appendingPathComponent("server.sqlite").path
        let calendar = SimulatedCalendar()
        var storage = try SQLiteServerStorage(path: path)
        var server = NotesServer(storage: storage, now: { calendar.now }, log: { _ in })
        let username = try await BenchAccount.make(server: server).username
        guard let account = try await storage.account(username: username)?.id else {
            throw BenchFailure("\(label): the account was not stored")
        }
        let writes = BatchMaker(
            ids: (0..<notes).map { _ in NoteID() }, texts: (0..<notes).map { corpus.note($0) }, codec: codec)
        var result = Result(footprint: try HistoryFootprint.measure(path: path), notes: notes)
        let clock = ContinuousClock()
        var next = Task { try writes.batch(round: 0) }
        for day in 0..<days {
            for edit in 0..<editsPerDay {
                let round = day * editsPerDay + edit
                let batch = try await next.value
                if round + 1 < days * editsPerDay { next = Task { try writes.batch(round: round + 1) } }
                let now = SimulatedCalendar.edit(edit, ofDay: day)
                calendar.set(now)
                let started = clock.now
                let results = try await storage.writeBatch(
                    batch, account: account, writer: nil, now: now, record: { _ in nil })
                result.writeTime += clock.now - started
                result.writes += batch.count
                for outcome in results {
                    guard case .applied(.saved(let version, _, _)) = outcome, version == round + 1 else {
                        throw BenchFailure("\(label): round \(round) was not saved as version \(round + 1): \(outcome)")
                    }
                }
            }
            if day % 10 == 9 { progress("  \(label): day \(day + 1) of \(days) written") }
            guard prunes else { continue }
            calendar.set(SimulatedCalendar.pruning(afterDay: day))
            let last = day == days - 1
            if last, let widenTo {
                await storage.close()
                let added = try HistoryWidening.widen(path: path, to: widenTo)
                progress("  \(label): widened to \(widenTo) notes (\(added) copies) for the last night")
                result.notes += added
                storage = try SQLiteServerStorage(path: path)
                server = NotesServer(storage: storage, now: { calendar.now }, log: { _ in })
            }
            if last { result.payloadBeforeLastPass = try HistoryFootprint.measure(path: path).payloadBytes }
            try await server.purgeTombstones(olderThan: calendar.now.addingTimeInterval(-30 * 86_400))
            let started = clock.now
            result.pruned += try await server.pruneHistory()
            if last { result.lastPass = clock.now - started } else { result.nightlyPasses.append(clock.now - started) }
        }
        if prunes {
            let started = clock.now
            let again = try await server.pruneHistory()
            result.idlePass = clock.now - started
            guard again == 0 else { throw BenchFailure("\(label): a second pass pruned \(again) more versions") }
        }
        result.footprint = try HistoryFootprint.measure(path: path)
        await storage.close()
        return result
    }

    /// One edit of every note, sealed: a round's batch.
    private struct BatchMaker: Sendable {
        var ids: [NoteID]
        var texts: [(title: String, body: String)]
        var codec: BenchCodec

        func batch(round: Int) throws -> [(write: NoteWrite, idempotency: IdempotencyKey)] {
            try zip(ids, texts).map { id, text in
                let body = round == 0 ? text.body : NoteCorpus.edited(text.body, round: round)
                let payload = try codec.seal(NoteContent(title: text.title, body: body), noteID: id)
                let base = round == 0 ? nil : BaseVersion(number: round, tag: nil)
                return (
                    .put(noteID: id.description, payload: payload, base: base),
                    IdempotencyKey(key: UUID().uuidString, fingerprint: "bench")
                )
            }
        }
    }
}
