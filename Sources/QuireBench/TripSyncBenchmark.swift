import Foundation
import QuireClient
import QuireCrypto
import QuireTrips

/// Trips (issue 14): "a trip of 500 items, 20 fields changed on each of two devices, sync both:
/// time and bytes on the wire (only changed fields travel)".
///
/// A real server on loopback (``BenchServer``), one account, two devices with their own
/// sessions (``TripBenchDevice``). A makes the trip (``TripCorpus``) and syncs; B syncs it down.
/// Then, both offline, A changes 20 fields and B 20 others (the same 20 items, another field on
/// each); then sync A, sync B, sync A. Both must show the same items with all 40 changes, or the
/// benchmark fails. Baselines from the same run: the sealed size of the values that had to travel
/// (all of them for the first upload, the 40 changed ones after), and a bare `GET /v1/trips/{id}`
/// of the whole trip (its bytes, and its time beside B's first download).
enum TripSyncBenchmark {
    static let name = "trip-sync"
    static let snapshotRounds = 5

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let server = try await BenchServer(directory: try context.directory("trips-server"), codec: context.codec)
        do {
            let rows = try await measure(context, server: server)
            await server.stop()
            return rows
        } catch {
            await server.stop()
            throw error
        }
    }

    private static func measure(_ context: BenchContext, server: BenchServer) async throws -> [BenchRow] {
        let count = context.sizes.tripItems
        let notesKey = SymmetricKey256.random()
        let a = try await TripBenchDevice(
            "trips-a", directory: try context.directory("trips-a"), server: server, notesKey: notesKey)
        let b = try await TripBenchDevice(
            "trips-b", directory: try context.directory("trips-b"), server: server, notesKey: notesKey)
        let corpus = try TripCorpus.items(count)
        progress("trip-sync: A makes a trip of \(count) items and syncs; B syncs it down")
        let ((trip, ids), made) = try await measureAsync { try await makeTrip(corpus, on: a.database) }
        let upload = try await a.sync("A's first sync")
        let download = try await b.sync("B's first sync")
        var expected = Dictionary(uniqueKeysWithValues: zip(ids, corpus))
        let arrived = TripConvergence.problems([("B", try await b.database.trip(trip))], expected: expected)
        guard arrived.isEmpty else {
            throw BenchFailure("trip-sync: B's first sync did not bring the trip: " + arrived.joined(separator: "; "))
        }

        progress("trip-sync: 20 field changes on each device offline, then sync A, B, A")
        let edits = [TripCorpus.edits(device: 0, items: corpus), TripCorpus.edits(device: 1, items: corpus)]
        for (device, deviceEdits) in zip([a, b], edits) {
            for edit in deviceEdits {
                try await device.database.editItem(ids[edit.index], [edit.field: edit.value])
                expected[ids[edit.index], default: [:]][edit.field] = edit.value
            }
        }
        let steps = [
            try await a.sync("sync A (push its 20)"), try await b.sync("sync B (push its 20, pull A's)"),
            try await a.sync("sync A again (pull B's)"),
        ]
        let converged = TripConvergence.problems(
            [("A", try await a.database.trip(trip)), ("B", try await b.database.trip(trip))], expected: expected)
        guard converged.isEmpty else {
            throw BenchFailure("trip-sync: the devices did not converge: " + converged.joined(separator: "; "))
        }

        guard let key = try await a.database.tripKey(trip) else { throw BenchFailure("trip-sync: A has no trip key") }
        let sealer = TripSealer(trip: trip, key: key)
        let changed = try edits.flatMap { $0 }.map { edit in
            (
                name: TripSyncStep.FieldName(item: ids[edit.index].description, field: edit.field.rawValue),
                sealed: try sealer.seal(edit.value, item: ids[edit.index], field: edit.field.rawValue)
                    .value?.utf8.count ?? 0
            )
        }
        let snapshot = try await bareSnapshot(trip, server: server)
        return firstSyncRows(count, upload: upload, download: download, snapshot: snapshot, made: made)
            + editRows(
                count, steps: steps, changed: changed,
                own: edits.map {
                    Set($0.map { TripSyncStep.FieldName(item: ids[$0.index].description, field: $0.field.rawValue) })
                },
                snapshot: snapshot)
    }

    /// The trip with its own fields and `corpus`'s items, in one transaction per item, as a
    /// person adding them would; returns its id and the item ids in corpus order.
    private static func makeTrip(_ corpus: [[TripField: String]], on database: TripsDatabase) async throws
        -> (TripID, [ItemID])
    {
        let trip = try await database.createTrip(
            title: TripCorpus.title, startDate: LocalDate("2027-06-01"), endDate: LocalDate("2027-06-30"),
            notes: "Rail passes in the blue folder. Travel insurance policy 4471-22.")
        var ids: [ItemID] = []
        for values in corpus { ids.append(try await database.addItem(to: trip, values)) }
        return (trip, ids)
    }

    /// A bare `GET /v1/trips/{id}` through the same client and transport on a session of its
    /// own, after a warm-up: its bytes on the wire and the median time of ``snapshotRounds``.
    private static func bareSnapshot(_ trip: TripID, server: BenchServer) async throws -> (
        bytes: Int, fields: Int, time: Duration
    ) {
        let counting = CountingTransport(
            wrapping: LiveTransport.make(baseURL: server.baseURL), host: "\(server.host.host):\(server.host.port)")
        let token = try await server.core.openSession(username: server.username, deviceName: "trips-bare")
        let client = TripsAPIClient(transport: counting, tokens: StaticTokenProvider(token: token))
        var times = Samples()
        var fields = 0
        for round in 0...snapshotRounds {
            let (snapshot, time) = try await measureAsync { try await client.snapshot(of: trip) }
            fields = snapshot.fields.count
            if round > 0 { times.append(time) }
        }
        let last = counting.exchanges.last
        return ((last?.requestBytes ?? 0) + (last?.responseBytes ?? 0), fields, times.median)
    }

    private static func firstSyncRows(
        _ count: Int, upload: TripSyncStep, download: TripSyncStep, snapshot: (bytes: Int, fields: Int, time: Duration),
        made: Duration
    ) -> [BenchRow] {
        let sealedUp = upload.valuesUp.reduce(0) { $0 + ($1.value?.utf8.count ?? 0) }
        let trip = "trip of \(Figure.count(count)) items"
        let echo =
            upload.fetchedSnapshot
            ? "; after its push A fetched the whole trip back (its first pull of a trip with no cursor takes the snapshot)"
            : ""
        return [
            BenchRow(
                benchmark: name,
                label: "\(trip): A's first sync (upload \(Figure.count(upload.valuesUp.count)) values), time",
                measured: time(upload.duration),
                note: upload.summary + "; the trip was made on A beforehand in \(Figure.seconds(made)) (not timed)"),
            BenchRow(
                benchmark: name, label: "\(trip): A's first sync, bytes on the wire",
                measured: Figure.bytes(upload.bytes),
                baseline: "\(Figure.bytes(sealedUp)) sealed values", ratio: Double(upload.bytes) / Double(sealedUp),
                note: "↑\(Figure.bytes(upload.bytesUp)) ↓\(Figure.bytes(upload.bytesDown))\(echo)"),
            BenchRow(
                benchmark: name, label: "\(trip): B's first sync (download), time", measured: time(download.duration),
                baseline: "\(Figure.milliseconds(snapshot.time)) bare snapshot GET",
                ratio: download.duration.seconds / snapshot.time.seconds,
                note: download.summary + "; the baseline is the median of \(snapshotRounds) bare GET /v1/trips/{id} "
                    + "(\(Figure.count(snapshot.fields)) fields, after the edits) through the same client, no device database"
            ),
            BenchRow(
                benchmark: name, label: "\(trip): B's first sync, bytes on the wire",
                measured: Figure.bytes(download.bytes),
                baseline: "\(Figure.bytes(snapshot.bytes)) snapshot GET",
                ratio: Double(download.bytes) / Double(snapshot.bytes),
                note: "↑\(Figure.bytes(download.bytesUp)) ↓\(Figure.bytes(download.bytesDown))"),
        ]
    }

    private static func editRows(
        _ count: Int, steps: [TripSyncStep], changed: [(name: TripSyncStep.FieldName, sealed: Int)],
        own: [Set<TripSyncStep.FieldName>], snapshot: (bytes: Int, fields: Int, time: Duration)
    ) -> [BenchRow] {
        let changedNames = Set(changed.map(\.name))
        let sealed = changed.reduce(0) { $0 + $1.sealed }
        let up = steps.reduce(0) { $0 + $1.bytesUp }
        let down = steps.reduce(0) { $0 + $1.bytesDown }
        let carried = steps.flatMap { $0.valuesUp + $0.valuesDown }.map(TripSyncStep.name)
        let unchanged = carried.filter { !changedNames.contains($0) }
        let snapshots = steps.filter(\.fetchedSnapshot).count
        let onlyChanged = unchanged.isEmpty && snapshots == 0
        // A device's own values coming back to it in a pull.
        let echoes = zip(steps, [0, 1, 0]).reduce(0) { total, pair in
            total + pair.0.valuesDown.filter { own[pair.1].contains(TripSyncStep.name($0)) }.count
        }
        let label = "20 + 20 field changes on a trip of \(Figure.count(count)) items"
        let detail =
            "↑\(Figure.bytes(up)) ↓\(Figure.bytes(down)); \(carried.count) values carried in all "
            + "(\(unchanged.count) of unchanged fields, \(snapshots) snapshots, \(echoes) a device's own value back); "
            + "each changed value must cross twice (up from its writer, down to the other), so "
            + "\(Figure.bytes(2 * sealed)) is the floor of the values alone"
        var rows = steps.map { step in
            BenchRow(
                benchmark: name, label: "\(label): \(step.label), time", measured: Figure.milliseconds(step.duration),
                note: step.summary)
        }
        rows.append(
            BenchRow(
                benchmark: name, label: "\(label): sync A, B, A, bytes on the wire", measured: Figure.bytes(up + down),
                baseline: "\(Figure.bytes(sealed)) sealed 40 values", ratio: Double(up + down) / Double(sealed),
                target: "only changed fields travel", met: onlyChanged, note: detail))
        rows.append(
            BenchRow(
                benchmark: name, label: "\(label): sync A, B, A, bytes vs the whole trip",
                measured: Figure.bytes(up + down),
                baseline: "\(Figure.bytes(snapshot.bytes)) one snapshot GET",
                ratio: Double(up + down) / Double(snapshot.bytes),
                note: "the snapshot of the trip after the edits, \(Figure.count(snapshot.fields)) fields, one bare GET")
        )
        return rows
    }

    /// Seconds from one second up, milliseconds below.
    private static func time(_ duration: Duration) -> String {
        duration < .seconds(1) ? Figure.milliseconds(duration) : Figure.seconds(duration)
    }
}
