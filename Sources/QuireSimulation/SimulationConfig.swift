/// The size of a simulated world and what, if anything, is deliberately broken in it.
public struct SimulationConfig: Hashable, Sendable {
    /// Deliberate product faults, to prove the checks can fail. `.none` for real runs.
    public enum Sabotage: Hashable, Sendable {
        case none
        /// Every conflict is settled by taking the server's copy: the local text is dropped (no
        /// merge, no conflict copy, no edit-beats-delete). "Nothing lost" must catch it.
        case dropLocalTextOnConflict
        /// The server allows no retry of a rotated refresh token (issue 9, defect 9): a lost
        /// refresh answer signs the device out. The session check must catch it.
        case noRefreshRetryGrace
        /// Every trip op reaches the server as if based on the newest revision, so the last
        /// writer wins and overwrites values nobody saw. The trips' ledger must catch it.
        case tripsLastWriterWins
        /// The server lets a viewer's trip ops through (it makes the viewer an editor for the
        /// request). The membership check must catch it.
        case viewersMayEdit
        /// The server's history and trash routes answer only the current texts: it kept no
        /// earlier version and no deleted note. The history ledger must catch it.
        case serverForgetsHistory
    }

    /// Number of devices (≥ 1).
    public var devices: Int
    /// Number of planned actions per seed.
    public var steps: Int
    /// Page size of the changes feed, small so pulls take several pages and crashes land mid-pull.
    public var pageLimit: Int
    /// Rounds of "every device syncs" allowed after healing before it counts as a liveness failure.
    public var maxQuiescenceRounds: Int
    public var sabotage: Sabotage
    /// Whether the plan edits trips too (seed 002) beside the notes; false draws the notes-only
    /// plans of earlier versions, seed for seed.
    public var trips: Bool
    /// The share of steps, in percent, that change trips.
    public var tripShare: Int
    /// How many trip ops travel in one request: small, so a push takes several requests and
    /// faults land between them.
    public var tripOpsLimit: Int
    /// Whether a second account's device (the companion) shares the trips (issue 15): the owner
    /// shares, changes the companion's role and removes it, interleaved with both accounts'
    /// edits. False draws the plans of earlier versions, seed for seed.
    public var companion: Bool
    /// Whether the end checks require every edit a delete had not seen to be offered back on
    /// every member's device that synced to the end, not only on its author's (issue 15). On by
    /// default; before the product offered it everywhere, `TripCaseTests` showed it failing
    /// (docs/trips.md, "An unseen edit on every member's device").
    public var unseenEditsEverywhere: Bool

    public init(
        devices: Int = 3, steps: Int = 60, pageLimit: Int = 3, maxQuiescenceRounds: Int = 12,
        sabotage: Sabotage = .none, trips: Bool = true, tripShare: Int = 30, tripOpsLimit: Int = 4,
        companion: Bool = false, unseenEditsEverywhere: Bool = true
    ) {
        self.unseenEditsEverywhere = unseenEditsEverywhere
        self.companion = companion
        self.tripOpsLimit = tripOpsLimit
        self.trips = trips
        self.tripShare = tripShare
        self.devices = devices
        self.steps = steps
        self.pageLimit = pageLimit
        self.maxQuiescenceRounds = maxQuiescenceRounds
        self.sabotage = sabotage
    }
}
