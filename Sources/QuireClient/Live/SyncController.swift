import Foundation
import QuireWire

/// Runs the device's sync by itself (seed 000 card 6's triggers): at launch, after a save or an
/// edit (debounced), when the network comes back, when the app returns to the foreground,
/// periodically, and when a long-poll sees another device's change. One run at a time, always.
///
/// It drives every ``SyncPart`` of the device (the notes, the trips) as one ``DeviceSync`` run:
/// one set of triggers, one backoff, one online state for all of them.
///
/// Triggers that arrive during a run coalesce into one more run after it. A failed run backs off
/// (``RetryPolicy``, honouring `Retry-After`); saves and live updates during a backoff wait for
/// it, while network-back and foreground cut it short. A "signed out" failure pauses everything
/// until the app signals a new sign-in with `foreground()` or `start()`. All waiting goes through
/// the injected clock, so tests drive time by hand.
///
/// While online and not backing off, one long-poll per part is kept open (`GET
/// /v1/notes/changes?wait=N&limit=1`, `GET /v1/trips?wait=N&limit=1`): when one returns a change
/// the controller runs a sync, which pulls it, so another device's edit arrives within a round
/// trip. A part whose server has no feed for it stops its long-poll (``SyncPartUnavailable``).
public actor SyncController {
    public typealias RunHandler = @Sendable (SyncTrigger, SyncReport) -> Void

    private let device: DeviceSync
    private let network: NetworkPath
    private let clock: any Clock<Duration>
    private let policy: RetryPolicy
    private let debounce: Duration
    private let periodic: Duration
    private let longPollWait: Int
    private let otherProcessPoll: Duration?
    private let random: @Sendable () -> Double

    private var tasks: [Task<Void, Never>] = []
    private var debounceTask: Task<Void, Never>?
    private var retryTask: Task<Void, Never>?
    private var requested: SyncTrigger?
    private var wakeLoop: CheckedContinuation<Void, Never>?
    private var stateWaiters: [CheckedContinuation<Void, Never>] = []
    private var online = true
    private var signedOut = false
    private var backingOff = false
    private var attempt = 0
    private var runHandler: RunHandler?
    /// Runs finished since start; the long-poll waits on it to know its run happened.
    private var completedRuns = 0
    public private(set) var isStarted = false

    /// A controller for the notes alone (their engine, database and API).
    public init(
        engine: NotesSyncEngine, records: SyncRecords, api: NotesAPI,
        network: NetworkPath = AlwaysOnlinePath(), clock: any Clock<Duration> = ContinuousClock(),
        policy: RetryPolicy = RetryPolicy(), debounce: Duration = .milliseconds(300),
        periodic: Duration = .seconds(300), longPollWait: Int = 25,
        otherProcessPoll: Duration? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.init(
            parts: [NotesSyncPart(engine: engine, records: records, api: api)], network: network, clock: clock,
            policy: policy, debounce: debounce, periodic: periodic, longPollWait: longPollWait,
            otherProcessPoll: otherProcessPoll, random: random)
    }

    /// A controller for every part of the device, run in this order (notes, then trips).
    public init(
        parts: [any SyncPart],
        network: NetworkPath = AlwaysOnlinePath(), clock: any Clock<Duration> = ContinuousClock(),
        policy: RetryPolicy = RetryPolicy(), debounce: Duration = .milliseconds(300),
        periodic: Duration = .seconds(300), longPollWait: Int = 25,
        otherProcessPoll: Duration? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.otherProcessPoll = otherProcessPoll
        self.device = DeviceSync(parts: parts)
        self.network = network
        self.clock = clock
        self.policy = policy
        self.debounce = debounce
        self.periodic = periodic
        self.longPollWait = min(max(longPollWait, 0), WireRoutes.maxWaitSeconds)
        self.random = random
    }

    /// Called after every run with what triggered it and what it did.
    public func onRun(_ handler: RunHandler?) {
        runHandler = handler
    }

    // MARK: - Lifecycle

    /// Starts the triggers and runs a first sync. Calling it again while started changes nothing
    /// except that it clears a "signed out" pause.
    public func start() {
        signedOut = false
        guard !isStarted else { return }
        isStarted = true
        request(.launch)
        tasks.append(Task { await self.runLoop() })
        for part in device.parts {
            tasks.append(Task { await self.watchPendingChanges(of: part) })
        }
        tasks.append(Task { await self.watchNetwork() })
        tasks.append(Task { await self.periodicTicks() })
        if longPollWait > 0 {
            for part in device.parts { tasks.append(Task { await self.longPoll(part) }) }
        }
        if let otherProcessPoll {
            tasks.append(Task { await self.watchOtherProcesses(every: otherProcessPoll) })
        }
    }

    /// Looks for commits of other processes of this device (a `quire new` beside `quire watch`)
    /// every `interval`, so their saves reach the pending-count trigger and are pushed.
    private func watchOtherProcesses(every interval: Duration) async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: interval)
                for part in device.parts { try await part.noticeChangesFromOtherProcesses() }
            } catch is CancellationError {
                return
            } catch {
                // A failed read of one counter: the next look, or the periodic sync, catches up.
            }
        }
    }

    /// Stops every trigger and cancels what is in flight. A run already sending a change ends at
    /// its next step; the change stays queued and is resent unchanged next time.
    public func stop() async {
        guard isStarted else { return }
        isStarted = false
        let all = tasks + [debounceTask, retryTask].compactMap { $0 }
        tasks = []
        debounceTask = nil
        retryTask = nil
        for task in all { task.cancel() }
        await device.cancelCurrentRun()
        wakeLoop?.resume()
        wakeLoop = nil
        notifyStateChange()
        for task in all { await task.value }
    }

    /// The app returned to the foreground (or signed in again): sync now, even during a backoff.
    public func foreground() {
        signedOut = false
        request(.foreground)
    }

    // MARK: - Requests and the run loop

    private func request(_ trigger: SyncTrigger) {
        guard isStarted else { return }
        if signedOut && !trigger.overridesBackoff { return }
        if backingOff && !trigger.overridesBackoff { return }  // the retry run will cover it
        if !online && trigger != .networkBack && trigger != .foreground { return }
        if trigger.overridesBackoff {
            retryTask?.cancel()
            retryTask = nil
            backingOff = false
        }
        if requested == nil || trigger.overridesBackoff { requested = trigger }
        wakeLoop?.resume()
        wakeLoop = nil
    }

    private func runLoop() async {
        while !Task.isCancelled {
            if requested == nil {
                await withCheckedContinuation { wakeLoop = $0 }
                continue
            }
            guard let trigger = requested else { continue }
            requested = nil
            let report = await device.syncOnce()
            completedRuns += 1
            await handle(report, trigger: trigger)
            runHandler?(trigger, report)
            notifyStateChange()
        }
    }

    private func handle(_ report: SyncReport, trigger: SyncTrigger) async {
        guard let failure = report.failure else {
            attempt = 0
            return
        }
        switch failure.kind {
        case .signedOut:
            signedOut = true
        case .transient, .unreachable, .storage:
            if failure.kind == .unreachable { await network.connectionFailed() }
            attempt += 1
            backingOff = true
            let delay = policy.delay(attempt: attempt, retryAfter: failure.retryAfter, random: random())
            retryTask?.cancel()
            retryTask = Task { [clock] in
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
                self.retryElapsed()
            }
        }
    }

    private func retryElapsed() {
        backingOff = false
        retryTask = nil
        request(.retry)
    }

    // MARK: - Trigger sources

    private func watchPendingChanges(of part: any SyncPart) async {
        var last: Int?
        for await count in part.pendingCount() {
            defer { last = count }
            guard let previous = last, count > previous else { continue }
            scheduleDebouncedLocalChange()
        }
    }

    private func scheduleDebouncedLocalChange() {
        debounceTask?.cancel()
        debounceTask = Task { [clock, debounce] in
            do {
                try await clock.sleep(for: debounce)
            } catch {
                return
            }
            self.request(.localChange)
        }
    }

    private func watchNetwork() async {
        for await reachable in network.updates() {
            let cameBack = reachable && !online
            online = reachable
            if cameBack { request(.networkBack) }
            notifyStateChange()
        }
    }

    private func periodicTicks() async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: periodic)
            } catch {
                return
            }
            request(.periodic)
        }
    }

    // MARK: - Live updates

    private var longPollReady: Bool { online && !signedOut && !backingOff }

    private func longPoll(_ part: any SyncPart) async {
        while !Task.isCancelled {
            guard longPollReady else {
                await waitForStateChange()
                continue
            }
            do {
                let asked = ContinuousClock.now
                let arrived = try await part.remoteChangeArrived(wait: longPollWait)
                guard arrived, !Task.isCancelled else {
                    // An empty answer long before the wait (a server at its long-poll cap, a proxy
                    // that cuts held requests): pause, or this loop would ask as fast as the
                    // server can answer. The periodic sync still runs meanwhile.
                    if ContinuousClock.now - asked < .seconds(longPollWait) / 2 {
                        try await clock.sleep(for: Self.earlyEmptyPause)
                    }
                    continue
                }
                // Run a sync to pull it, and wait for a run to finish so the cursor has moved on.
                let before = completedRuns
                request(.liveUpdate)
                while completedRuns == before, isStarted, !Task.isCancelled {
                    await waitForStateChange()
                }
            } catch is CancellationError {
                return
            } catch is SyncPartUnavailable {
                return
            } catch {
                // A failed poll waits like a failed run; the run loop's own failures set backoff.
                let delay = policy.delay(attempt: max(attempt, 1), random: random())
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
            }
        }
    }

    /// How long the long-poll waits after an empty answer that came long before its wait.
    public static let earlyEmptyPause: Duration = .seconds(5)

    private func waitForStateChange() async {
        guard isStarted, !Task.isCancelled else { return }
        await withCheckedContinuation { stateWaiters.append($0) }
    }

    private func notifyStateChange() {
        let waiters = stateWaiters
        stateWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - For tests and status

    /// The controller's view of things, for `quire watch` and tests.
    public struct State: Equatable, Sendable {
        public var online: Bool
        public var signedOut: Bool
        public var backingOff: Bool
        public var attempt: Int
        public var completedRuns: Int
    }

    public var state: State {
        State(
            online: online, signedOut: signedOut, backingOff: backingOff, attempt: attempt,
            completedRuns: completedRuns)
    }
}
