import Foundation
import QuireClient
import QuireDomain

/// Server PUT throughput and p99 latency with 64 concurrent connections: `wrk` PUTs new 2 KB notes
/// to the real server (handler core, SQLite storage, full durability, libmicrohttpd host, in this
/// process) and, with the same script, to ``PlainMicroHTTPServer``, which only reads the body and
/// answers a constant: the host layer's own ceiling on this machine.
enum ServerPutBenchmark {
    static let name = "server-put"
    static let connections = 64

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let label = "server PUT, \(connections) connections"
        let server = try await BenchServer(directory: try context.directory("put-server"), codec: context.codec)
        let plain = try PlainMicroHTTPServer()
        let text = context.corpus.note(1)
        let payload = try context.codec.seal(NoteContent(title: text.title, body: text.body), noteID: NoteID())
        guard
            let wrk = try WrkRunner(
                scratch: try context.directory("wrk"), payload: payload, token: server.token)
        else {
            plain.stop()
            await server.stop()
            return [
                .notMeasured(name, label, reason: "wrk is not installed (apt-get install -y wrk)")
            ]
        }
        let seconds = context.sizes.loadSeconds
        progress("server-put: wrk warm-up, then \(seconds) s against each server")
        let result: (ours: WrkRunner.Result, plain: WrkRunner.Result)
        do {
            _ = try wrk.run(url: server.baseURL, connections: connections, seconds: 1, run: 1)
            _ = try wrk.run(url: plain.baseURL, connections: connections, seconds: 1, run: 1)
            let ours = try wrk.run(url: server.baseURL, connections: connections, seconds: seconds, run: 2)
            let baseline = try wrk.run(url: plain.baseURL, connections: connections, seconds: seconds, run: 2)
            result = (ours, baseline)
        } catch {
            plain.stop()
            await server.stop()
            throw error
        }
        plain.stop()
        await server.stop()

        let failures =
            result.ours.failures > 0 ? "; \(result.ours.failures) of \(result.ours.requests) requests failed" : ""
        return [
            BenchRow(
                benchmark: name, label: "\(label), throughput",
                measured: String(format: "%.0f PUT/s", result.ours.requestsPerSecond),
                baseline: String(format: "%.0f req/s plain MHD", result.plain.requestsPerSecond),
                ratio: result.ours.requestsPerSecond / result.plain.requestsPerSecond,
                note: "wrk -t2 -c\(connections) -d\(seconds)s on the same 2 cores; each PUT is one "
                    + "SQLite transaction with synchronous=FULL" + failures),
            BenchRow(
                benchmark: name, label: "\(label), latency p99 (p50)",
                measured: "\(Figure.milliseconds(result.ours.p99)) (\(Figure.milliseconds(result.ours.p50)))",
                baseline: "\(Figure.milliseconds(result.plain.p99)) (\(Figure.milliseconds(result.plain.p50))) plain",
                ratio: result.ours.p99.seconds / max(result.plain.p99.seconds, 1e-9)),
        ]
    }
}
