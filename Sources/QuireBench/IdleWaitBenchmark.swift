import Foundation
import QuireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a device costs while it waits (a `quire watch` between changes: one long-poll held open
/// on the server): the process's CPU time during a long-poll that nothing answers, per second of
/// waiting, through the device's transport and, as the baseline in the same run, through
/// FoundationNetworking's URLSession (which the device used before; it spins while it waits).
enum IdleWaitBenchmark {
    static let name = "idle-wait"

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let server = try await BenchServer(directory: try context.directory("idle-server"), codec: context.codec)
        do {
            let seconds = max(2, context.sizes.loadSeconds / 2)
            progress("idle-wait: a \(seconds) s long-poll through each transport…")
            let device = try await cpuPerSecond(LiveTransport.make(baseURL: server.baseURL), server, seconds)
            let session = try await cpuPerSecond(URLSessionTransport(baseURL: server.baseURL), server, seconds)
            await server.stop()
            return [
                BenchRow(
                    benchmark: name, label: "CPU while a long-poll waits (\(seconds) s), per second",
                    measured: String(format: "%.1f ms", device), baseline: String(format: "%.1f ms", session),
                    ratio: session > 0 ? device / session : nil, target: "< 5 ms", met: device < 5,
                    note: "baseline: URLSession (FoundationNetworking) on the same server")
            ]
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The process's CPU milliseconds per second while `transport` holds one long-poll for
    /// `seconds` that no change answers.
    private static func cpuPerSecond(_ transport: HTTPTransport, _ server: BenchServer, _ seconds: Int)
        async throws -> Double
    {
        let api = server.apiClient(transport: transport)
        let end = try await api.changes(since: nil, limit: 1, wait: 0)
        var cursor = Cursor(end.nextCursor)
        var more = end.hasMore
        while more {
            let page = try await api.changes(since: cursor, limit: 500, wait: 0)
            cursor = Cursor(page.nextCursor)
            more = page.hasMore
        }
        let before = ProcessCPU.seconds()
        let started = Date()
        _ = try await api.changes(since: cursor, limit: 1, wait: seconds)
        let elapsed = Date().timeIntervalSince(started)
        return (ProcessCPU.seconds() - before) * 1_000 / elapsed
    }
}
