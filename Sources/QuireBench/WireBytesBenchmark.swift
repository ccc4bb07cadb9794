import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport

/// Bytes on the wire for one edit of one 2 KB note among 10,000: a device that holds every note
/// (synced in process first) edits one word of one note and syncs over loopback through a
/// ``CountingTransport``. Compared with the sealed payload of the edited note.
enum WireBytesBenchmark {
    static let name = "wire-bytes"

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let seeded = try await context.seededServer()
        let server = seeded.server
        progress("wire-bytes: a device takes all \(seeded.ids.count) notes in process")
        let database = try NotesDatabase(
            fileURL: try context.directory("wire-device").appendingPathComponent("notes.sqlite"))
        let initial = NotesSyncEngine(
            records: database, api: server.apiClient(transport: InProcessTransport(server: server.core)),
            codec: server.codec, account: AccountID("bench"), pageLimit: 500)
        let first = await initial.syncOnce()
        guard first.failure == nil, first.received == seeded.ids.count else {
            throw BenchFailure("wire-bytes: the initial sync failed: \(String(describing: first.failure))")
        }

        let counting = CountingTransport(
            wrapping: LiveTransport.make(baseURL: server.baseURL),
            host: "\(server.host.host):\(server.host.port)")
        let engine = NotesSyncEngine(
            records: database, api: server.apiClient(transport: counting), codec: server.codec,
            account: AccountID("bench"), pageLimit: 500)
        let id = seeded.ids[seeded.ids.count / 2]
        guard let note = try await database.noteRow(id: id) else {
            throw BenchFailure("wire-bytes: note \(id) is missing on the device")
        }
        let edited = NoteContent(title: note.title, body: NoteCorpus.edited(note.body, round: 1))
        try await database.saveNote(id: id, title: edited.title, body: edited.body)
        let payloadBytes = try server.codec.seal(edited, noteID: id).utf8.count
        let report = await engine.syncOnce()
        guard report.failure == nil, report.pushed == 1 else {
            throw BenchFailure("wire-bytes: the edit's sync failed: \(String(describing: report.failure))")
        }

        let exchanges = counting.exchanges
        let total = exchanges.reduce(0) { $0 + $1.requestBytes + $1.responseBytes }
        let ratio = Double(total) / Double(payloadBytes)
        let breakdown = exchanges.map {
            "\($0.method) \($0.path.split(separator: "?").first ?? "") → \($0.requestBytes) B + "
                + "\($0.responseBytes) B"
        }.joined(separator: "; ")
        let echoed = exchanges.contains { $0.method == "GET" && $0.responseBodyBytes >= payloadBytes }
        let met = ratio <= 1.3
        var detail = breakdown
        if !met, echoed {
            detail +=
                ". The pull after the push gets the device's own change back (the feed does not "
                + "know which device wrote it), so the payload crosses the wire twice"
        }
        return [
            BenchRow(
                benchmark: name,
                label: "bytes on the wire, one edit of one 2 KB note among \(Figure.count(seeded.ids.count))",
                measured: Figure.bytes(total), baseline: "\(Figure.bytes(payloadBytes)) payload",
                ratio: ratio, target: "≤ 1.3 × payload", met: met, note: detail)
        ]
    }
}
