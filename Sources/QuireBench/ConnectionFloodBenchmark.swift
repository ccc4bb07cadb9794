import Foundation
import QuireSpawn
import QuireTestSupport
import QuireWire

/// Issue 12's availability numbers, against the server in a child process
/// (``FloodServerChild``): how much memory a held long-poll costs (10,000 of them from 200
/// accounts and 100 loopback addresses), and how promptly another client's health probe and note
/// PUT answer while 1,000 slowloris connections from one address are open, beside the same probes
/// with no attack in the same run.
enum ConnectionFloodBenchmark {
    static let name = "connection-floods"
    static let pollsPerAccount = 50
    static let pollsPerAddress = 100

    struct Probes {
        var health: [Duration] = []
        var put: [Duration] = []
        var failures = 0
    }

    static func run(_ context: BenchContext) async throws -> [BenchRow] {
        let polls = context.options.quick ? 1_000 : 10_000
        let slowloris = context.options.quick ? 200 : 1_000
        let probes = context.options.quick ? 100 : 400
        let directory = try context.directory("flood-server")
        let child = try ChildProcess(
            [Child.selfExecutable, FloodServerChild.subcommand, directory.path, "\(polls / pollsPerAccount + 1)"],
            stdout: .pipe)
        defer {
            child.signal(SIGKILL)
            _ = child.wait()
        }
        let ready = try await onBenchThread { () throws -> FloodServerChild.Ready in
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                guard let chunk = child.output?.availableData, !chunk.isEmpty else { break }
                line += chunk
            }
            return try JSONDecoder().decode(FloodServerChild.Ready.self, from: line)
        }
        progress("connection-floods: server pid \(child.pid) on port \(ready.port)")
        return try await onBenchThread {
            try measure(ready, pid: child.pid, polls: polls, slowloris: slowloris, probes: probes)
        }
    }

    private static func measure(
        _ ready: FloodServerChild.Ready, pid: pid_t, polls: Int, slowloris: Int, probes: Int
    ) throws -> [BenchRow] {
        let port = ready.port
        // The last account probes; the others hold the long-polls (a probe's PUT would wake them).
        let pollers = Array(ready.tokens.dropLast())
        let prober = ready.tokens[ready.tokens.count - 1]
        let cursors = try pollers.map { token -> String in
            guard
                let answer = LoopbackExchange.send(
                    port: port, "GET", WireRoutes.changes, headers: ["Authorization": "Bearer \(token)"]),
                answer.status == 200
            else { throw BenchFailure("the first changes page failed") }
            return try WireJSON.decoder().decode(ChangesPageDTO.self, from: answer.body).nextCursor
        }
        let baseline = probe(port: port, token: prober, count: probes)

        // 10,000 long-polls, held.
        let before = FloodServerChild.residentKiB(of: pid) ?? 0
        let opening = ContinuousClock.now
        var held: [LoopbackSocket] = []
        for index in 0..<polls {
            let account = index % pollers.count
            let socket = try LoopbackSocket(port: port, source: "127.0.1.\(1 + index / pollsPerAddress)")
            socket.send(
                "GET \(WireRoutes.changes)?since=\(cursors[account])&wait=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer \(pollers[account])\r\n\r\n")
            held.append(socket)
        }
        let opened = ContinuousClock.now - opening
        Thread.sleep(forTimeInterval: 1)
        let whilePolling = probe(port: port, token: prober, count: probes / 2)
        let during = FloodServerChild.residentKiB(of: pid) ?? 0
        let answeredEarly = held.filter(\.hasAnswerOrClosed).count
        let perWaiter = Double(during - before) * 1024 / Double(polls)
        progress(
            "connection-floods: \(polls) long-polls opened in \(Figure.seconds(opened)); RSS \(before) → \(during) KiB")
        held = []
        Thread.sleep(forTimeInterval: 1)

        // 1,000 slowloris connections from one address, a header line each every second.
        var slow: [LoopbackSocket] = []
        for _ in 0..<slowloris {
            let socket = try LoopbackSocket(port: port, source: "127.0.0.2")
            socket.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(socket)
        }
        let dripping = DripThread(slow)
        Thread.sleep(forTimeInterval: 1)
        let underAttack = probe(port: port, token: prober, count: probes)
        dripping.stop()
        let stillOpen = slow.filter { !$0.hasAnswerOrClosed }.count
        withExtendedLifetime(slow) {}

        let pollNote =
            "server RSS \(before / 1024) → \(during / 1024) MiB with \(Figure.count(polls)) polls from "
            + "\(polls / pollsPerAccount) accounts and \(polls / pollsPerAddress) addresses, opened in "
            + "\(Figure.seconds(opened)); \(answeredEarly) answered before their 30 s wait"
        let attackNote =
            "\(stillOpen) of \(slowloris) slowloris connections from 127.0.0.2 still open at the end; "
            + "\(probes / 2) probes each, one at a time, new connection each; failures: "
            + "\(underAttack.failures) (baseline \(baseline.failures))"
        return [
            BenchRow(
                benchmark: name, label: "\(Figure.count(polls)) concurrent long-polls, server memory per waiter",
                measured: String(format: "%.1f KB", perWaiter / 1000), target: "< 20 KB",
                met: answeredEarly == 0 && perWaiter < 20_000, note: pollNote),
            row("/v1/health", underAttack.health, baseline.health, slowloris, note: attackNote),
            row("note PUT", underAttack.put, baseline.put, slowloris, note: attackNote),
            BenchRow(
                benchmark: name, label: "/v1/health p99 (p50) while \(Figure.count(polls)) long-polls are held",
                measured: percentiles(whilePolling.health), baseline: percentiles(baseline.health) + " idle",
                target: "< 100 ms",
                met: whilePolling.failures == 0 && percentile(whilePolling.health, 0.99) < .milliseconds(100)),
        ]
    }

    private static func row(
        _ what: String, _ measured: [Duration], _ baseline: [Duration], _ slowloris: Int, note: String
    ) -> BenchRow {
        let p99 = percentile(measured, 0.99)
        return BenchRow(
            benchmark: name, label: "\(what) p99 (p50) with \(Figure.count(slowloris)) slowloris open",
            measured: percentiles(measured), baseline: percentiles(baseline) + " no attack",
            ratio: p99.seconds / max(percentile(baseline, 0.99).seconds, 1e-9), target: "< 100 ms",
            met: measured.count > 0 && p99 < .milliseconds(100), note: note)
    }

    /// `count` probes, alternating health and a new note's PUT; a failed one counts apart.
    private static func probe(port: UInt16, token: String, count: Int) -> Probes {
        var result = Probes()
        let body = String(
            decoding: WireJSON.encode(PutNoteRequestDTO(payload: "c2VhbGVk", baseVersion: nil)), as: UTF8.self)
        for index in 0..<count {
            let started = ContinuousClock.now
            if index % 2 == 0 {
                guard LoopbackExchange.send(port: port, "GET", "/v1/health")?.status == 200 else {
                    result.failures += 1
                    continue
                }
                result.health.append(ContinuousClock.now - started)
            } else {
                let answer = LoopbackExchange.send(
                    port: port, "PUT", WireRoutes.note(UUID().uuidString.lowercased()),
                    headers: [
                        "Authorization": "Bearer \(token)", "Content-Type": "application/json",
                        WireRoutes.idempotencyKeyHeader: UUID().uuidString,
                    ], body: Data(body.utf8))
                guard answer?.status == 200 else {
                    result.failures += 1
                    continue
                }
                result.put.append(ContinuousClock.now - started)
            }
        }
        return result
    }

    static func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        guard !values.isEmpty else { return .seconds(1_000_000) }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))]
    }

    static func percentiles(_ values: [Duration]) -> String {
        "\(Figure.milliseconds(percentile(values, 0.99))) (\(Figure.milliseconds(percentile(values, 0.5))))"
    }
}

/// Sends one more header line on every slowloris socket each second until stopped.
private final class DripThread: @unchecked Sendable {
    // @unchecked Sendable: `running` is guarded by `lock`; the sockets are only written by the
    // drip thread while the benchmark waits on its probes.
    private let lock = NSLock()
    private var running = true

    init(_ sockets: [LoopbackSocket]) {
        let box = SocketBox(sockets)
        Thread.detachNewThread { [self] in
            var line = 0
            while lock.withLock({ running }) {
                Thread.sleep(forTimeInterval: 1)
                line += 1
                for socket in box.sockets { socket.send("X-Slow-\(line): x\r\n") }
            }
        }
    }

    func stop() { lock.withLock { running = false } }
}

/// @unchecked Sendable: handed to the drip thread, which alone uses the sockets meanwhile.
private struct SocketBox: @unchecked Sendable {
    let sockets: [LoopbackSocket]
    init(_ sockets: [LoopbackSocket]) { self.sockets = sockets }
}

/// Runs blocking socket work on a thread of its own, off the concurrency pool.
func onBenchThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}
