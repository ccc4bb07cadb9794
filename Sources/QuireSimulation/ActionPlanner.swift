import QuireDomain
import QuireTrips

/// Draws a seed's plan: the whole list of actions, up front, from one ``SplitMix64``.
///
/// Drawing everything before running keeps the plan independent of what the product does, so a
/// seed always means the same plan and a shrunk plan is a plain sub-list of it. The weights favour
/// edits and syncs (where conflicts come from) over faults, and keep a device offline for a while
/// so it piles up changes.
public enum ActionPlanner {
    /// The plan for `seed`: `config.steps` actions over `config.devices` devices.
    public static func plan(seed: UInt64, config: SimulationConfig) -> [SimulationAction] {
        var random = SplitMix64(seed: seed)
        var actions: [SimulationAction] = []
        var token = 0
        func nextToken() -> Int {
            token += 1
            return token
        }
        let devices = max(1, config.devices)
        // A few notes everyone starts from, so edits of shared notes begin early.
        for device in 0..<min(devices, 2) {
            actions.append(.create(device: device, token: nextToken(), lines: 2))
            actions.append(.sync(device: device))
        }
        if config.trips {
            // A trip everyone starts from, with two items.
            actions.append(.trip(device: 0, .create(token: nextToken())))
            for place in 0..<2 {
                actions.append(.trip(device: 0, .add(trip: 0, token: nextToken(), timed: place == 0, place: 1)))
            }
            actions.append(.sync(device: 0))
            if config.companion {
                actions.append(.companion(.share(trip: 0, viewer: false)))
                actions.append(.companion(.sync))
            }
        }
        while actions.count < config.steps {
            if config.trips, config.companion, random.chance(15) {
                // Now and then the server goes back to its last backup amid the sharing: a
                // removal, a role change or a join the restore forgets, and values sent again.
                if random.chance(8) {
                    if random.chance(50) {
                        actions.append(.backUpServer)
                    } else {
                        actions.append(.restoreServer)
                        // The removal d0 (the device that removes) makes again after the
                        // restore may fail once.
                        if random.chance(50) {
                            actions.append(.fault(device: 0, .failRotation(random.chance(50) ? 500 : 503)))
                        }
                    }
                } else {
                    actions.append(.companion(companionStep(&random, token: nextToken())))
                }
                continue
            }
            let device = random.below(devices)
            if config.trips, random.chance(config.tripShare) {
                actions.append(.trip(device: device, tripStep(&random, token: nextToken())))
                continue
            }
            let note = random.below(8)
            let roll = random.below(100)
            switch roll {
            case 0..<8:
                actions.append(
                    .create(device: device, token: nextToken(), lines: 1 + random.below(3)))
            case 8..<24:
                actions.append(
                    .editLine(device: device, note: note, line: random.below(6), token: nextToken())
                )
            case 24..<34:
                actions.append(.append(device: device, note: note, token: nextToken()))
            case 34..<39:
                actions.append(.rename(device: device, note: note, token: nextToken()))
            case 39..<44:
                actions.append(.delete(device: device, note: note))
            case 44..<48:
                let choice = ConflictChoice.allCases[random.below(ConflictChoice.allCases.count)]
                actions.append(.resolve(device: device, copy: note, choice: choice))
            case 48..<72:
                actions.append(.sync(device: device))
            case 72..<88:
                actions.append(.fault(device: device, randomFault(&random)))
            case 88..<92:
                actions.append(
                    random.chance(50) ? .disconnect(device: device) : .reconnect(device: device))
            case 92..<95:
                actions.append(.crash(device: device))
            case 95:
                actions.append(.concurrentSync(device: device))
            case 96:
                actions.append(
                    random.chance(50)
                        ? .concurrentSync(device: device) : .switchAccount(device: device))
            case 97:
                // A backup alone changes nothing.
                actions.append(random.chance(50) ? .backUpServer : .purgeTombstones)
            case 98 where random.chance(50):
                // The server's history goes back to the last backup: versions and sequence
                // numbers are handed out again, to other texts.
                actions.append(.restoreServer)
            case 99:
                // Versions older than the retention go, with whatever listings are going.
                actions.append(.pruneHistory)
            default:
                actions.append(.deliverDelayed(pick: random.below(4)))
            }
        }
        return actions
    }

    /// One trip step: edits and inserts most, then moves, deletes and settling conflicts.
    private static func tripStep(_ random: inout SplitMix64, token: Int) -> SimulationTripStep {
        let trip = random.below(4)
        let item = random.below(8)
        let roll = random.below(100)
        switch roll {
        case 0..<5:
            return .create(token: token)
        case 5..<27:
            return .add(trip: trip, token: token, timed: random.chance(60), place: random.below(8))
        case 27..<59:
            let field = SimulationTripStep.itemFields[random.below(SimulationTripStep.itemFields.count)]
            return .edit(trip: trip, item: item, field: field, token: token, line: random.below(3))
        case 59..<67:
            let field = SimulationTripStep.tripFields[random.below(SimulationTripStep.tripFields.count)]
            return .edit(trip: trip, item: nil, field: field, token: token, line: random.below(3))
        case 67..<79:
            return .move(trip: trip, item: item, place: random.below(8))
        case 79..<87:
            return .deleteItem(trip: trip, item: item)
        default:
            // Both draws are made for every roll here, so a plan's later steps are drawn the same
            // whichever this one is.
            let choice = TripConflictChoice.allCases[random.below(TripConflictChoice.allCases.count)]
            let conflict = random.below(4)
            return roll == 99 ? .deleteTrip(trip: trip) : .resolve(conflict: conflict, keep: choice)
        }
    }

    /// One step between the account and its companion: mostly the companion's edits and syncs,
    /// then sharing, role changes, removals and leaving.
    private static func companionStep(_ random: inout SplitMix64, token: Int) -> CompanionStep {
        let trip = random.below(4)
        switch random.below(100) {
        case 0..<40:
            let step = tripStep(&random, token: token)
            if case .create = step {
                return .trip(.edit(trip: trip, item: nil, field: .notes, token: token, line: random.below(3)))
            }
            return .trip(step)
        case 40..<62: return .sync
        case 62..<74: return .share(trip: trip, viewer: random.chance(40))
        case 74..<84: return .role(trip: trip, viewer: random.chance(50))
        case 84..<94: return .remove(trip: trip)
        default: return .leave(trip: trip)
        }
    }

    private static func randomFault(_ random: inout SplitMix64) -> SimulationFault {
        switch random.below(12) {
        case 0: .dropRequest
        case 1: .dropReply
        case 2: .duplicate
        case 3: .status(500)
        case 4: .status(503)
        case 5: .throttled
        case 6: .delay
        case 7: .crashAfterDelivery
        case 8: .expireCursor
        case 9: .refuseWrite(random.chance(50) ? 413 : 422)
        case 10: .poisonNote(count: 2 + random.below(6))
        default: random.chance(50) ? .dropReply : .loseRefreshReply
        }
    }
}
