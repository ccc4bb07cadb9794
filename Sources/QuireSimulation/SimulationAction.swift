import QuireDomain

/// One step of a simulation, as the planner drew it and the runner replays it.
///
/// Actions name devices and notes by index, resolved when the step runs (a note index is taken
/// modulo the device's live notes in a stable order; an action with nothing to act on does
/// nothing), so any sub-list of a plan is itself a valid plan: that is what shrinking relies on.
/// `token` values are unique within a plan, so every line and title a user types is unique text.
public enum SimulationAction: Hashable, Sendable, CustomStringConvertible {
    /// The user creates a note titled `T<token>` with `lines` body lines.
    case create(device: Int, token: Int, lines: Int)
    /// The user replaces one body line with a new one (appends when the body is empty).
    case editLine(device: Int, note: Int, line: Int, token: Int)
    /// The user appends a line.
    case append(device: Int, note: Int, token: Int)
    /// The user renames the note.
    case rename(device: Int, note: Int, token: Int)
    /// The user deletes the note.
    case delete(device: Int, note: Int)
    /// The user settles a conflict copy (chosen among the device's live copies).
    case resolve(device: Int, copy: Int, choice: ConflictChoice)
    /// The device runs one sync (push everything, pull every page).
    case sync(device: Int)
    /// The device's next request meets this fault.
    case fault(device: Int, SimulationFault)
    /// The device loses its connection until `.reconnect`.
    case disconnect(device: Int)
    case reconnect(device: Int)
    /// The device's process dies between steps: its engine and database actor are dropped and the
    /// same file is opened again.
    case crash(device: Int)
    /// One request held back by a `.delay` fault reaches the server now (its answer is lost).
    case deliverDelayed(pick: Int)
    /// A second process of the device (its own connection to the same file and its own engine)
    /// syncs while the device's own engine does: `quire watch` beside a `quire sync`.
    case concurrentSync(device: Int)
    /// The server's operator takes a backup.
    case backUpServer
    /// The server is restored from the last backup: it forgets every write since.
    case restoreServer
    /// The device tries to sign in to another account: refused while it holds notes (nothing may
    /// move between accounts), allowed when it holds none (it then signs back in).
    case switchAccount(device: Int)
    /// The server purges every tombstone (a retention of zero), in the middle of whatever
    /// listings are going.
    case purgeTombstones
    /// The server prunes the history with a retention of zero: every earlier version goes but a
    /// deleted note's last text, and its mark goes to the marks kept on their own.
    case pruneHistory
    /// The user changes the device's trips (seed 002).
    case trip(device: Int, SimulationTripStep)
    /// The companion's device, or the owner's sharing with it (issue 15).
    case companion(CompanionStep)

    public var device: Int? {
        switch self {
        case .create(let device, _, _), .editLine(let device, _, _, _), .append(let device, _, _),
            .rename(let device, _, _), .delete(let device, _), .resolve(let device, _, _),
            .sync(let device), .fault(let device, _), .disconnect(let device),
            .reconnect(let device), .crash(let device), .concurrentSync(let device),
            .switchAccount(let device), .trip(let device, _):
            device
        case .deliverDelayed, .backUpServer, .restoreServer, .purgeTombstones, .pruneHistory, .companion:
            nil
        }
    }

    public var description: String {
        switch self {
        case .create(let d, let token, let lines): "d\(d) create T\(token) lines:\(lines)"
        case .editLine(let d, let note, let line, let token):
            "d\(d) edit note#\(note) line#\(line) -> L\(token)"
        case .append(let d, let note, let token): "d\(d) append note#\(note) L\(token)"
        case .rename(let d, let note, let token): "d\(d) rename note#\(note) -> T\(token)"
        case .delete(let d, let note): "d\(d) delete note#\(note)"
        case .resolve(let d, let copy, let choice): "d\(d) resolve copy#\(copy) keep \(choice)"
        case .sync(let d): "d\(d) sync"
        case .fault(let d, let fault): "d\(d) next request: \(fault)"
        case .disconnect(let d): "d\(d) offline"
        case .reconnect(let d): "d\(d) online"
        case .crash(let d): "d\(d) crash + reopen"
        case .deliverDelayed(let pick): "deliver delayed request #\(pick)"
        case .concurrentSync(let d): "d\(d) sync from two processes at once"
        case .switchAccount(let d): "d\(d) tries to sign in to another account"
        case .backUpServer: "server backup"
        case .restoreServer: "server restored from the last backup"
        case .purgeTombstones: "server purges every tombstone"
        case .pruneHistory: "server prunes every earlier version"
        case .trip(let d, let step): "d\(d) \(step)"
        case .companion(let step): "\(step)"
        }
    }
}

/// What the network or the server does to one request.
public enum SimulationFault: Hashable, Sendable, CustomStringConvertible {
    /// Lost on the way: never reaches the server; the client times out.
    case dropRequest
    /// The server applies it; the answer is lost; the client times out.
    case dropReply
    /// Delivered twice; the client sees the second answer.
    case duplicate
    /// The server answers this status (500, 503) without applying anything.
    case status(Int)
    /// 429 with `Retry-After`.
    case throttled
    /// Held in the network and delivered later, after other requests (reordered); the client
    /// times out now.
    case delay
    /// The server applies it, then the device crashes before reading the answer (mid-push for a
    /// write, mid-pull for a page of the feed); the device reopens after the step.
    case crashAfterDelivery
    /// The device's next pull from a cursor gets 410 `cursor_expired` (a full resync follows).
    case expireCursor
    /// The device's next single write is refused with this status (413, 422), as the server
    /// refuses a change it will never take; a batch meets it as a refusal of the whole batch.
    case refuseWrite(Int)
    /// The next `count` writes that carry the first note of the device's next write fail with
    /// 500: one change that keeps failing while the others go on.
    case poisonNote(count: Int)
    /// The device's next token refresh is applied (the server rotates its tokens) and the answer
    /// is lost: the device still holds the tokens the server just replaced.
    case loseRefreshReply
    /// The device's next trip key rotation (`POST /v1/trips/{id}/keys`, as a removal makes it)
    /// is answered with this status and not applied.
    case failRotation(Int)

    public var description: String {
        switch self {
        case .dropRequest: "drop request (timeout)"
        case .dropReply: "apply, drop reply"
        case .duplicate: "duplicate"
        case .status(let code): "HTTP \(code)"
        case .throttled: "429 throttled"
        case .delay: "delay + reorder"
        case .crashAfterDelivery: "apply, then crash"
        case .expireCursor: "410 cursor expired on next pull"
        case .refuseWrite(let status): "next write refused with \(status)"
        case .poisonNote(let count): "next write's note fails \(count) times"
        case .loseRefreshReply: "next token refresh: applied, answer lost"
        case .failRotation(let status): "next key rotation fails with \(status)"
        }
    }
}
