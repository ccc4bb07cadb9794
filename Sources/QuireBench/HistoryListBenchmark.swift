import Foundation
import QuireClient
import QuireDomain
import QuireWire

/// Listing a long history (issue 10): a device whose note has 500 versions on the server (each
/// saved on this device and synced, so its own history holds the newest 32 too) lists them as
/// `quire history ID --json` does: its local history, the server's through `NoteHistoryReader`
/// over the live API client on loopback (every page, every payload opened), the merge, and the
/// JSON. Baselines, interleaved with it: the bare `GET /v1/notes/{id}/versions` of the same page
/// (transport only: bytes, no decoding), the same fetch through `NotesAPIClient` (decoded),
/// opening the 500 payloads alone (one after another), and the page's JSON as the route writes it
/// against `JSONEncoder`'s.
enum HistoryListBenchmark {
    static let name = "history-list"
    static let warmUp = 5

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let server = try await BenchServer(directory: try context.directory("history-server"), codec: context.codec)
        do {
            let rows = try await measureListing(context, server: server)
            await server.stop()
            return rows
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func measureListing(_ context: BenchContext, server: BenchServer) async throws -> [BenchRow] {
        let versions = context.sizes.historyVersions
        let runs = context.sizes.historyRuns
        let database = try NotesDatabase(
            fileURL: try context.directory("history-device").appendingPathComponent("notes.sqlite"))
        let api = try await server.deviceClient("history-device")
        let id = try await saveVersions(versions, database: database, api: api, context: context, server: server)
        let reader = NoteHistoryReader(api: api, codec: server.codec, ownDevice: try await database.deviceLabel())
        let transport = LiveTransport.make(baseURL: server.baseURL)
        let bare = TransportRequest(
            method: "GET", path: WireRoutes.noteVersions(id.description) + "?limit=\(WireRoutes.maxPageLimit)",
            headers: ["Authorization": "Bearer \(server.token)", "Accept": "application/json"])

        progress("history-list: \(runs) listings of \(versions) versions, each beside its baselines")
        var listings = Samples()
        var fetches = Samples()
        var decoded = Samples()
        var opens = Samples()
        var writes = Samples()
        var encodes = Samples()
        var stages = ListingStages()
        var listed = 0
        var jsonBytes = 0
        var pageBytes = 0
        for round in 0..<(runs + warmUp) {
            var stage = ListingStages()
            let (listing, listTime) = try await measureAsync { () async throws -> (json: Data, count: Int) in
                let (local, localTime) = try await measureAsync { try await database.localHistory(of: id) }
                let (history, serverTime) = try await measureAsync { try await reader.history(of: id) }
                guard history.unreadable == 0 else { throw BenchFailure("history-list: unreadable versions") }
                let (merged, mergeTime) = measure { NoteHistoryMerge.merged(server: history.versions, local: local) }
                // `quire history ID --json`'s encoding.
                let (json, jsonTime) = try measure { try NoteVersionJSON.list(merged) }
                stage.append(local: localTime, server: serverTime, merge: mergeTime, json: jsonTime)
                return (json, merged.count)
            }
            let (response, fetch) = try await measureAsync { try await transport.send(bare) }
            guard response.status == 200 else { throw BenchFailure("history-list: bare GET got \(response.status)") }
            let (page, decode) = try await measureAsync {
                try await api.history(of: id, before: nil, limit: WireRoutes.maxPageLimit)
            }
            let (_, open) = try measure {
                for version in page.versions { _ = try server.codec.open(version.payload, noteID: id) }
            }
            let (direct, written) = measure { page.wireJSON() }
            let (encoded, encoding) = measure { WireJSON.encode(page) }
            guard direct == encoded else { throw BenchFailure("history-list: the direct JSON is not the encoder's") }
            guard round >= warmUp else { continue }
            writes.append(written)
            encodes.append(encoding)
            stages.add(stage)
            listings.append(listTime)
            fetches.append(fetch)
            decoded.append(decode)
            opens.append(open)
            (listed, jsonBytes, pageBytes) = (listing.count, listing.json.count, response.body.count)
        }
        guard listed == versions else {
            throw BenchFailure("history-list: listed \(listed) texts of a note with \(versions) versions")
        }
        return rows(
            listings: listings, stages: stages, fetches: fetches, decoded: decoded, opens: opens,
            versions: versions, pageBytes: pageBytes, jsonBytes: jsonBytes)
            + [
                BenchRow(
                    benchmark: name, label: "the server writing the \(versions)-version page's JSON, median",
                    measured: Figure.milliseconds(writes.median),
                    baseline: "\(Figure.milliseconds(encodes.median)) JSONEncoder",
                    ratio: writes.median.seconds / encodes.median.seconds,
                    note: "NoteHistoryDTO.wireJSON (what the route answers) against WireJSON.encode of the same "
                        + "page, interleaved; the bytes are checked equal each run")
            ]
    }

    /// Saves the note `count` times on the device (a corpus note, then one word changed each
    /// time), each save followed by a sync that pushes it: `count` versions on the server, the
    /// newest 32 texts in the device's own history. Returns the note's id.
    private static func saveVersions(
        _ count: Int, database: NotesDatabase, api: NotesAPIClient, context: BenchContext, server: BenchServer
    ) async throws -> NoteID {
        progress("history-list: saving and syncing one note \(count) times")
        let engine = NotesSyncEngine(
            records: database, api: api, codec: server.codec, account: AccountID("bench"), pageLimit: 500)
        let id = NoteID()
        let text = context.corpus.note(0)
        for round in 0..<count {
            let body = round == 0 ? text.body : NoteCorpus.edited(text.body, round: round)
            try await database.saveNote(id: id, title: text.title, body: body)
            let report = await engine.syncOnce()
            guard report.failure == nil, report.pushed == 1 else {
                throw BenchFailure("history-list: sync \(round) failed: \(String(describing: report.failure))")
            }
        }
        return id
    }

    private static func rows(
        listings: Samples, stages: ListingStages, fetches: Samples, decoded: Samples, opens: Samples,
        versions: Int, pageBytes: Int, jsonBytes: Int
    ) -> [BenchRow] {
        let label = "history of a note with \(versions) versions, listed as quire history --json does"
        let detail =
            "\(listings.count) runs after \(warmUp) warm-up: local history, NoteHistoryReader over NotesAPIClient "
            + "(libcurl, loopback; one page of \(WireRoutes.maxPageLimit)), merge, JSON (\(Figure.bytes(jsonBytes))). "
            + "The page is \(Figure.bytes(pageBytes)); fetched and decoded by NotesAPIClient: median "
            + "\(Figure.milliseconds(decoded.median)), p99 \(Figure.milliseconds(decoded.p99))"
        let stageNote = "; stages, median: " + stages.summary
        return [
            BenchRow(
                benchmark: name, label: "\(label), median", measured: Figure.milliseconds(listings.median),
                baseline: "\(Figure.milliseconds(fetches.median)) bare GET",
                ratio: listings.median.seconds / fetches.median.seconds, target: "< 50 ms",
                met: listings.median < .milliseconds(50), note: detail + stageNote),
            BenchRow(
                benchmark: name, label: "\(label), p99", measured: Figure.milliseconds(listings.p99),
                baseline: "\(Figure.milliseconds(fetches.p99)) bare GET",
                ratio: listings.p99.seconds / fetches.p99.seconds,
                target: "< 50 ms", met: listings.p99 < .milliseconds(50)),
            BenchRow(
                benchmark: name, label: "opening the \(versions) sealed payloads alone, median",
                measured: Figure.milliseconds(opens.median),
                note: "p99 \(Figure.milliseconds(opens.p99)); AES-256-GCM with the client's SealedPayloadCodec"),
        ]
    }
}
