import Foundation
import QuireClient
import QuireDomain
import QuirePresentation

/// What `quire watch` prints: the status label when it changes, and notes that arrive from other
/// devices (a note whose text came from another device changed, appeared or disappeared). A note
/// saved on this device, by this process or any other, is never reported as an arrival.
final class WatchPrinter: @unchecked Sendable {
    // `lastLabel` is touched only from the status task.
    private let console: Console
    private let json: Bool
    private let verbose: Bool
    private var lastLabel: String?

    init(console: Console, json: Bool, verbose: Bool) {
        self.console = console
        self.json = json
        self.verbose = verbose
    }

    private struct Event: Encodable {
        var event: String
        /// When it happened, ISO 8601 in UTC.
        var time = ISO8601DateFormatter().string(from: Date())
        var label: String?
        var id: String?
        var title: String?
        var pending: Int?
        var lastError: String?
    }

    func status(_ status: SyncStatus) {
        let label = SyncStatusLabel.text(for: status, syncConfigured: true)
        guard label != lastLabel else { return }
        lastLabel = label
        if json {
            emit(Event(event: "status", label: label, pending: status.pendingCount, lastError: status.lastError))
        } else {
            let time = Date().formatted(date: .omitted, time: .standard)
            var line = "[\(time)] \(label)"
            if verbose, let error = status.lastError, status.lastRunFailed { line += " (\(error))" }
            console.out(line)
        }
    }

    /// Reports what arrived between two values of the list: one line per note, or, when more
    /// than a screenful arrived at once (a first sync, a long absence), one summary line.
    /// `--json` always gets one event per note.
    func arrivals(
        from previous: [NoteID: NoteRecord], to current: [NoteID: NoteRecord],
        deletedElsewhere: Set<NoteID>
    ) {
        var arrived: [(kind: String, note: NoteRecord)] = []
        for (id, note) in current.sorted(by: { $0.key < $1.key }) where note.arrived {
            if let old = previous[id] {
                if old.title != note.title || old.body != note.body { arrived.append(("updated", note)) }
            } else {
                arrived.append(("new", note))
            }
        }
        for (id, old) in previous.sorted(by: { $0.key < $1.key })
        where current[id] == nil && deletedElsewhere.contains(id) {
            arrived.append(("deleted", old))
        }
        guard json || arrived.count <= screenful else {
            console.out("  " + Self.summary(arrived.map(\.kind)))
            return
        }
        for (kind, note) in arrived { report(kind, note) }
    }

    /// The most arrival lines printed one by one: the terminal's height less the status line,
    /// or 20 when output is not a terminal.
    private var screenful: Int {
        guard console.stdoutIsTerminal, let rows = Console.windowSize?.rows, rows > 2 else { return 20 }
        return rows - 2
    }

    /// "received 10,002 notes (10,000 new, 2 updated)".
    static func summary(_ kinds: [String]) -> String {
        let counts = ["new", "updated", "deleted"].compactMap { kind -> String? in
            let count = kinds.filter { $0 == kind }.count
            return count == 0 ? nil : "\(count.formatted()) \(kind)"
        }
        return "received \(kinds.count.formatted()) notes (\(counts.joined(separator: ", ")))"
    }

    private func report(_ kind: String, _ note: NoteRecord) {
        let title = note.title.isEmpty ? "(untitled)" : TerminalText.oneLine(note.title)
        if json {
            emit(Event(event: kind, id: note.id.description, title: note.title))
        } else {
            console.out("  \(kind): \(title) (\(note.id.short))")
        }
    }

    func metrics(_ metrics: SyncMetrics) {
        let median = metrics.medianAckLatency.map { String(format: "%.0f ms", $0 * 1000) } ?? "n/a"
        let p99 = metrics.p99AckLatency.map { String(format: "%.0f ms", $0 * 1000) } ?? "n/a"
        console.out(
            "Runs \(metrics.runs) (failed \(metrics.failedRuns), full resyncs \(metrics.fullResyncs)); "
                + "acknowledged \(metrics.changesAcknowledged), save-to-ack median \(median), p99 \(p99); "
                + String(format: "conflict rate %.3f", metrics.conflictRate))
    }

    private func emit(_ event: Event) {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            console.out(String(decoding: try encoder.encode(event), as: UTF8.self))
        } catch {
            console.err("quire: could not encode an event: \(error)")
        }
    }
}
