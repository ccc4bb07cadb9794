import Foundation
import QuireClient
import QuireDomain
import QuireTestSupport
import Testing

/// The controller's triggers, backoff and live updates, on a manual clock: no test sleeps.
@Suite struct SyncControllerTests {
    /// Counts runs by trigger.
    final class RunLog: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var entries: [(SyncTrigger, SyncReport)] = []
        func append(_ trigger: SyncTrigger, _ report: SyncReport) {
            lock.withLock { entries.append((trigger, report)) }
        }
        var triggers: [SyncTrigger] { lock.withLock { entries.map(\.0) } }
        var reports: [SyncReport] { lock.withLock { entries.map(\.1) } }
        var count: Int { lock.withLock { entries.count } }
    }

    private func started(
        _ device: ClusterDevice, clock: ManualClock, network: NetworkPath = AlwaysOnlinePath(),
        longPollWait: Int = 0
    ) async -> (SyncController, RunLog) {
        let controller = device.controller(clock: clock, network: network, longPollWait: longPollWait)
        let log = RunLog()
        await controller.onRun { log.append($0, $1) }
        await controller.start()
        return (controller, log)
    }

    @Test func startRunsAFirstSyncAndStartingTwiceChangesNothing() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })
        await controller.start()
        await controller.start()
        #expect(log.triggers == [.launch])
        await controller.stop()
        #expect(await controller.isStarted == false)
    }

    @Test func aSaveRunsASyncOnlyAfterTheDebounce() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })

        let id = try await phone.create(title: "Typed", body: "x")
        // The debounce timer is sleeping on the clock; nothing has run yet.
        #expect(await eventually { clock.sleeperCount >= 2 })
        #expect(log.count == 1)
        clock.advance(by: .milliseconds(300))
        #expect(await eventually { log.count == 2 })
        #expect(log.triggers.last == .localChange)
        #expect(try await phone.note(id)?.sync == .synced)
        await controller.stop()
    }

    @Test func quickSavesCoalesceIntoOneRun() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })
        for index in 0..<5 {
            try await phone.create(title: "n\(index)", body: "")
            clock.advance(by: .milliseconds(100))
        }
        #expect(await eventually { clock.sleeperCount >= 2 })  // the debounce waits on the clock
        clock.advance(by: .milliseconds(300))
        #expect(await eventually { log.count == 2 })
        #expect(log.reports.last?.pushed == 5)
        // No further run is pending.
        await controller.foreground()
        #expect(await eventually { log.count == 3 })
        #expect(log.reports.last?.pushed == 0)
        await controller.stop()
    }

    @Test func backoffGrowsAfterFailuresAndResetsAfterSuccess() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        phone.transport.setPersistent(.status(503))
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })
        #expect(await controller.state.backingOff)
        #expect(await controller.state.attempt == 1)

        // random = 0.5: attempt n waits 0.55 × min(2^(n-1) s, 60 s).
        var waits: [Duration] = []
        for expected in 2...4 {
            let deadline = try #require(await waitForDeadlineBeyond(clock, periodic: .seconds(300)))
            waits.append(clock.now.duration(to: deadline))
            clock.advance(by: clock.now.duration(to: deadline))
            #expect(await eventually { log.count == expected })
            #expect(log.triggers.last == .retry)
        }
        #expect(waits == [.milliseconds(550), .milliseconds(1100), .milliseconds(2200)])

        phone.transport.setPersistent(nil)
        // The retry's sleep must be registered before time moves, as in the loop above.
        let retry = try #require(await waitForDeadlineBeyond(clock, periodic: .seconds(300)))
        clock.advance(by: clock.now.duration(to: retry))
        #expect(await eventually { log.count == 5 })
        #expect(log.reports.last?.succeeded == true)
        #expect(await controller.state.attempt == 0)
        #expect(await controller.state.backingOff == false)
        await controller.stop()
    }

    /// The earliest clock deadline that is not the periodic tick (which sleeps 300 s from zero).
    private func waitForDeadlineBeyond(_ clock: ManualClock, periodic: Duration) async -> ManualClock.Instant? {
        _ = await eventually { clock.sleeperCount >= 2 }
        return clock.nextDeadline
    }

    @Test func aThrottledServerGetsTheQuietItAskedFor() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        try await phone.create(title: "x", body: "")
        phone.transport.enqueue(.throttled(retryAfter: 40))
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })
        #expect(await eventually { clock.sleeperCount >= 2 })
        let deadline = try #require(clock.nextDeadline)
        #expect(clock.now.duration(to: deadline) == .seconds(40))
        clock.advance(by: .seconds(40))
        #expect(await eventually { log.count == 2 })
        #expect(log.reports.last?.succeeded == true)
        await controller.stop()
    }

    @Test func savesDuringABackoffWaitButNetworkBackCutsItShort() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let network = ManualNetworkPath()
        phone.transport.setPersistent(.unreachable)
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock, network: network)
        #expect(await eventually { log.count == 1 })
        #expect(log.reports.first?.failure?.kind == .unreachable)
        #expect(network.reportedFailures == 1)

        let id = try await phone.create(title: "Offline edit", body: "")
        clock.advance(by: .milliseconds(300))  // the debounce fires, but the backoff holds it
        #expect(log.count == 1)

        phone.transport.setPersistent(nil)
        network.set(online: false)
        network.set(online: true)
        #expect(await eventually { log.count == 2 })
        #expect(log.triggers.last == .networkBack)
        #expect(try await phone.note(id)?.sync == .synced)
        await controller.stop()
    }

    @Test func signedOutPausesUntilTheAppSignsInAgain() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        phone.transport.setPersistent(.status(401))
        let clock = ManualClock()
        let (controller, log) = await started(phone, clock: clock)
        #expect(await eventually { log.count == 1 })
        #expect(await controller.state.signedOut)

        let id = try await phone.create(title: "Kept", body: "while signed out")
        clock.advance(by: .seconds(1))
        #expect(log.count == 1)
        #expect(try await phone.note(id)?.sync == .pending(changes: 1))

        phone.transport.setPersistent(nil)
        await controller.foreground()
        #expect(await eventually { log.count == 2 })
        #expect(try await phone.note(id)?.sync == .synced)
        await controller.stop()
    }

    @Test func theLongPollBringsAnotherDevicesEditWithoutAnyTrigger() async throws {
        let cluster = try await SyncCluster()
        defer { cluster.remove() }
        let phone = try await cluster.addDevice("phone")
        let laptop = try await cluster.addDevice("laptop")
        let clock = ManualClock()
        let (controller, log) = await started(laptop, clock: clock, longPollWait: 20)
        #expect(await eventually { log.count == 1 })

        let id = try await phone.create(title: "From the phone", body: "live")
        await phone.sync()
        // The clock never moves: only the long-poll can have woken the laptop.
        #expect(try await eventually(timeout: 15) { try await laptop.note(id) != nil })
        // The note shows while its run applies the page; the run is logged when it ends.
        #expect(await eventually(timeout: 15) { log.triggers.contains(.liveUpdate) })
        await controller.stop()
    }
}

/// A part whose feed answers every long-poll at once, empty (a server at its long-poll cap).
final class AlwaysEmptyFeedPart: SyncPart, @unchecked Sendable {
    // `polls` is guarded by `lock`.
    private let lock = NSLock()
    private var polls = 0
    var pollCount: Int { lock.withLock { polls } }

    func syncOnce() async -> SyncReport { SyncReport() }
    func cancelCurrentRun() async {}
    func pendingCount() -> AsyncStream<Int> { AsyncStream { $0.yield(0) } }
    func noticeChangesFromOtherProcesses() async throws {}
    func remoteChangeArrived(wait: Int) async throws -> Bool {
        lock.withLock { polls += 1 }
        return false
    }
}

extension SyncControllerTests {
    /// Before: the loop asked again at once, as fast as the server answered (thousands a second).
    @Test func anEmptyAnswerLongBeforeTheWaitPausesTheLongPoll() async throws {
        let part = AlwaysEmptyFeedPart()
        let clock = ManualClock()
        let controller = SyncController(parts: [part], clock: clock, longPollWait: 20)
        await controller.start()
        #expect(await eventually { part.pollCount == 1 })
        // The loop waits out the pause on the clock, instead of asking again.
        #expect(
            await eventually {
                clock.nextDeadline.map { clock.now.duration(to: $0) == SyncController.earlyEmptyPause } ?? false
            })
        #expect(part.pollCount == 1)

        clock.advance(by: SyncController.earlyEmptyPause)

        #expect(await eventually { part.pollCount == 2 })
        await controller.stop()
    }
}
