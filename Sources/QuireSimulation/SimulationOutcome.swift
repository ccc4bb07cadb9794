/// A broken promise found by a run: which one, where, and the evidence.
public struct SimulationFailure: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Devices or the server hold different notes after quiescence.
        case divergence
        /// Typed text that nobody replaced or deleted after seeing it is gone.
        case lostText
        /// The server applied a change id twice, or a note's version disagrees with its changes.
        case appliedTwice
        /// A server version or a device's cursor went backwards.
        case wentBackwards
        /// No quiescence within the allowed rounds after healing.
        case liveness
        /// A sync failed on the device's own database ("no pending change", a constraint): never
        /// a network fault's doing. Two engines on one file without the run lock end here.
        case storage
        /// A device holding one account's notes was bound to another account.
        case crossAccount
        /// The server signed a device out though no lost refresh answer, replay or restore
        /// called for it (a lost refresh reply retried within the grace window, say).
        case signedOut
        /// A trip op was applied from an account whose role could not change the trip, or a
        /// removed member's device holds a value written after its removal (issue 15).
        case membership
        /// The harness itself failed (a file would not open, a user action threw).
        case harness
    }

    public var kind: Kind
    public var message: String
    /// The action index at which it was seen; nil for the end-of-run checks.
    public var step: Int?

    public init(kind: Kind, message: String, step: Int? = nil) {
        self.kind = kind
        self.message = message
        self.step = step
    }

    public var description: String {
        "\(kind.rawValue)" + (step.map { " at step \($0)" } ?? " at the end") + ": \(message)"
    }
}

/// What happened in one run of a plan.
public struct SimulationOutcome: Hashable, Sendable {
    /// nil: every check passed.
    public var failure: SimulationFailure?
    /// The final notes (titles, bodies, copy marks), sorted, and the run's counts: equal for two
    /// runs of the same plan.
    public var digest: String
    public var stats: SimulationStats

    public var passed: Bool { failure == nil }
}

/// Counts of what a run exercised, to show the faults actually happened.
public struct SimulationStats: Hashable, Sendable {
    public var syncs = 0
    public var failedSyncs = 0
    public var merges = 0
    public var conflictCopies = 0
    public var editsBeatDeletes = 0
    public var fullResyncs = 0
    public var crashes = 0
    public var appliedWrites = 0
    public var quiescenceRounds = 0
    public var refused = 0
    public var reuploaded = 0
    public var concurrentSyncs = 0
    public var restores = 0
    /// Devices signed out as the rotation rules require, and signed in again.
    public var signOuts = 0
    /// Trip steps taken, trips syncs run, and field conflicts they met.
    public var tripSteps = 0
    public var tripSyncs = 0
    public var tripConflicts = 0
    /// The companion's joins (an accepted invitation), its removals and leaves, and the trip key
    /// rotations that followed (issue 15).
    public var joins = 0
    public var removals = 0
    public var keysRotated = 0
    /// Texts the server stored that the history ledger found though no live note holds them any
    /// more: only the history or the trash kept them (issue 10).
    public var textsOnlyInHistory = 0
    /// Earlier versions the server's history pruning let go.
    public var prunedVersions = 0

    public init() {}

    /// Adds another run's counts (the largest quiescence round count is kept).
    public mutating func add(_ other: SimulationStats) {
        syncs += other.syncs
        failedSyncs += other.failedSyncs
        merges += other.merges
        conflictCopies += other.conflictCopies
        editsBeatDeletes += other.editsBeatDeletes
        fullResyncs += other.fullResyncs
        crashes += other.crashes
        appliedWrites += other.appliedWrites
        quiescenceRounds = max(quiescenceRounds, other.quiescenceRounds)
        refused += other.refused
        reuploaded += other.reuploaded
        concurrentSyncs += other.concurrentSyncs
        restores += other.restores
        signOuts += other.signOuts
        tripSteps += other.tripSteps
        tripSyncs += other.tripSyncs
        tripConflicts += other.tripConflicts
        joins += other.joins
        removals += other.removals
        keysRotated += other.keysRotated
        textsOnlyInHistory += other.textsOnlyInHistory
        prunedVersions += other.prunedVersions
    }

    public var summary: String {
        "syncs \(syncs) (failed \(failedSyncs)), merges \(merges), conflict copies \(conflictCopies), "
            + "edits beat deletes \(editsBeatDeletes), full resyncs \(fullResyncs), crashes \(crashes), "
            + "server writes \(appliedWrites), most quiescence rounds \(quiescenceRounds), "
            + "refused \(refused), restores \(restores) (re-uploaded \(reuploaded)), "
            + "two-process syncs \(concurrentSyncs), sign-outs \(signOuts), "
            + "trip steps \(tripSteps), trips syncs \(tripSyncs), trip conflicts \(tripConflicts), "
            + "texts only in history or trash \(textsOnlyInHistory), pruned versions \(prunedVersions)"
            + (joins + removals > 0
                ? ", companion joins \(joins), removals \(removals), keys rotated \(keysRotated)" : "")
    }
}

extension SimulationFailure: Error {}
