import Dispatch
import Foundation
import QuireClient
import QuireDomain
import QuirePresentation
import QuireTrips

// MARK: - watch

extension QuireCommandLine {
    /// `quire watch`: keeps this device in sync until interrupted, printing the status label when
    /// it changes and each note that arrives from another device. Ctrl-C stops it cleanly (exit 0).
    func watch(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        guard let (controller, _) = try device.makeController() else {
            throw CLIError(
                code: .config,
                message: "not signed in to a server; run: quire login URL USER (or quire register URL USER)")
        }
        let printer = WatchPrinter(console: console, json: arguments.flag("json"), verbose: arguments.flag("verbose"))
        let stop = InterruptSignal()
        await controller.start()
        let statusTask = Task {
            for await status in device.status.status() { printer.status(status) }
        }
        let database = device.database
        let notesTask = Task {
            var previous: [NoteID: NoteRecord]?
            for await notes in database.noteRows() {
                let current = Dictionary(uniqueKeysWithValues: notes.map { ($0.id, $0) })
                if let previous {
                    let gone = previous.keys.filter { current[$0] == nil }
                    var deletedElsewhere: Set<NoteID> = []
                    do {
                        deletedElsewhere = try await database.deletedElsewhere(gone)
                    } catch {
                        // A read that failed: say so, and report no deletions rather than guess.
                        console.err("quire watch: could not read which notes were deleted elsewhere: \(error)")
                    }
                    printer.arrivals(from: previous, to: current, deletedElsewhere: deletedElsewhere)
                }
                previous = current
            }
        }
        let tripsPrinter = TripWatchPrinter(console: console, json: arguments.flag("json"))
        let tripsTask = Task {
            var previous: [TripID: TripSummary]?
            for await trips in device.trips.tripList() {
                if let previous { tripsPrinter.changes(from: previous, to: trips) }
                previous = Dictionary(uniqueKeysWithValues: trips.map { ($0.id, $0) })
            }
        }
        await stop.wait()
        await controller.stop()
        statusTask.cancel()
        notesTask.cancel()
        tripsTask.cancel()
        if arguments.flag("verbose") { printer.metrics(try await device.database.runRecord().metrics) }
    }
}

/// Waits for SIGINT or SIGTERM.
final class InterruptSignal: @unchecked Sendable {
    // The sources are created once and only cancelled by their own handler.
    private var sources: [DispatchSourceSignal] = []

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once()
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    if once.claim() { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// True for the first caller only.
    private final class Once: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var claimed = false

        func claim() -> Bool {
            lock.withLock {
                defer { claimed = true }
                return !claimed
            }
        }
    }
}
