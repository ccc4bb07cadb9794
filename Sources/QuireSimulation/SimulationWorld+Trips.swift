import Foundation
import QuireClient
import QuireTrips

// MARK: - Trips: the person's steps and the trips' part of a sync

extension SimulationWorld {
    /// Performs one trip step on device `index`, telling the trips' ledger what was typed and what
    /// the device showed before and after.
    func performTrip(_ step: SimulationTripStep, device index: Int, step stepIndex: Int) async throws {
        try await performTrip(step, on: devices[index], step: stepIndex)
    }

    func performTrip(_ step: SimulationTripStep, on device: SimulationDevice, step stepIndex: Int) async throws {
        let database = try device.trips
        let before = try await TripsView(database)
        var trip: TripID?
        if let index = step.trip { trip = try await Self.pickTrip(index, in: database)?.id }
        let typed = try await apply(step, to: database)
        let after = try await TripsView(database)
        let origin = "step \(stepIndex) (d\(device.index) \(step))"
        let landed = typed.map {
            TextLedger.Atom(text: $0, kind: .line, origin: origin, scope: trip?.description ?? "")
        }.filter { TextLedger.holds($0, in: after.visible) }
        tripLedger.record(typed: landed, before: before.visible, after: after.visible)
        excusedOffers[device.index, default: []].formUnion(Self.itemsGone(before: before, after: after))
        stats.tripSteps += 1
        if device.username != Self.companionName, companion != nil {
            try await rememberWrittenWithoutCompanion(by: device.index, before: before, after: after)
        }
    }

    /// Does what the step says; returns the atoms it typed.
    private func apply(_ step: SimulationTripStep, to database: TripsDatabase) async throws -> [String] {
        switch step {
        case .create(let token):
            try await database.createTrip(title: "R\(token)", id: Self.tripID(token: token))
            return ["R\(token)"]
        case .add(let trip, let token, let timed, let place):
            guard let record = try await Self.pickTrip(trip, in: database) else { return [] }
            var values: [TripField: String?] = [
                .title: "I\(token)", .kind: ItemKind.activity.rawValue, .location: "P\(token)",
            ]
            if timed { values[.start] = Self.startValue(token: token) }
            let group = Self.group(of: timed ? Self.startValue(token: token) : nil, in: record)
            let id = Self.itemID(token: token)
            let position = SimulationTripStep.position(place, among: group)
            do {
                try await database.addItem(to: record.id, values, at: position, id: id)
            } catch is OrderKeyError {
                try await database.addItem(to: record.id, values, at: .last, id: id)
            }
            return ["I\(token)", "P\(token)"] + (timed ? [Self.startValue(token: token)] : [])
        case .edit(let trip, let item, let field, let token, let line):
            guard let record = try await Self.pickTrip(trip, in: database) else { return [] }
            guard let item else {
                let value = field == .notes ? Self.notes(record.notes, line: line, token: token) : "R\(token)"
                try await database.editTrip(record.id, [field: value])
                return [field == .notes ? "N\(token)" : "R\(token)"]
            }
            guard let target = Self.pick(item, from: record.items) else { return [] }
            let value: String
            switch field {
            case .notes: value = Self.notes(target.notes, line: line, token: token)
            case .start: value = Self.startValue(token: token)
            case .location: value = "P\(token)"
            default: value = "E\(token)"
            }
            try await database.editItem(target.id, [field: value])
            return [field == .notes ? "N\(token)" : value]
        case .move(let trip, let item, let place):
            guard let record = try await Self.pickTrip(trip, in: database),
                let target = Self.pick(item, from: record.items)
            else { return [] }
            let others = Self.group(of: target.value(.start), in: record).filter { $0 != target.id.description }
            do {
                try await database.moveItem(target.id, to: SimulationTripStep.position(place, among: others))
            } catch is OrderKeyError {
                try await database.moveItem(target.id, to: .last)
            }
            return []
        case .deleteItem(let trip, let item):
            guard let record = try await Self.pickTrip(trip, in: database),
                let target = Self.pick(item, from: record.items)
            else { return [] }
            try await database.deleteItem(target.id)
            return []
        case .deleteTrip(let trip):
            guard let record = try await Self.pickTrip(trip, in: database), record.role == TripMemberRole.owner.rawValue
            else { return [] }
            try await database.deleteTrip(record.id)
            return []
        case .resolve(let conflict, let keep):
            let conflicts = try await database.conflicts().sorted {
                ($0.trip.description, $0.item?.description ?? "", $0.field.rawValue)
                    < ($1.trip.description, $1.item?.description ?? "", $1.field.rawValue)
            }
            guard !conflicts.isEmpty else { return [] }
            let chosen = conflicts[conflict % conflicts.count]
            do {
                try await database.resolveConflict(
                    trip: chosen.trip, item: chosen.item, field: chosen.field, keep: keep)
            } catch let error as TripsDatabaseError where error.kind == .ownersOnly {
                // A member who may not restore the trip: the offer waits (the CLI says to ask an owner).
            }
            return []
        }
    }

    /// Runs the trips' part of a device's sync (after its notes, as the device's sync does).
    func syncTrips(of device: SimulationDevice, step: Int?) async throws -> SyncReport {
        let report = await (try device.tripsEngine).syncOnce()
        stats.tripSyncs += 1
        try absorb(report, of: device, part: "trips sync", step: step)
        if companion != nil, device.username != Self.companionName {
            try await closeForgottenRemovals(syncedBy: report.failure == nil ? device.index : nil)
            if report.failure == nil { try await checkNoRotationLeftDue(by: device, step: step) }
        }
        return report
    }

    // MARK: - The end checks

    /// Every device shows the server's trips (ignoring fields a device's refusal keeps).
    func checkTripsConvergence() async throws -> SimulationFailure? {
        guard let account = storage.account else { return nil }
        let server = try await TripsView(server: storage, account: account, keyrings: try await heldKeyrings())
        for device in devices {
            let local = try await TripsView(try device.trips)
            let differences = local.differences(from: server)
            guard !differences.isEmpty else { continue }
            return SimulationFailure(
                kind: .divergence,
                message: "d\(device.index)'s trips differ from the server's: "
                    + differences.prefix(6).joined(separator: "; "))
        }
        return try await checkCompanionConvergence()
    }

    /// Every value typed into a trip that nobody replaced after seeing it is still shown, or held
    /// as a conflict, on some device.
    func checkTripsLedger() async throws -> SimulationFailure? {
        var visible: [NoteSnapshot] = []
        for device in devices + [companion].compactMap({ $0 }) {
            visible += try await TripsView(try device.trips).visible
        }
        let missing = tripLedger.missing(in: visible)
        guard !missing.isEmpty else { return nil }
        return SimulationFailure(
            kind: .lostText, message: "lost in trips: \(missing.map(\.description).joined(separator: "; "))")
    }

    /// Every edit a delete had not seen (on the server at the end) is offered back on every
    /// member's device that synced to the end, not only on its author's, unless that device
    /// deleted the item itself or its person settled the offer.
    func checkUnseenEditsEverywhere() async throws -> SimulationFailure? {
        guard let account = storage.account else { return nil }
        let expected = try await TripsView.unseenEdits(
            server: storage, account: account, keyrings: try await heldKeyrings())
        guard !expected.isEmpty else { return nil }
        for device in devices + [companion].compactMap({ $0 }) {
            var mustOffer = expected
            if device.username == Self.companionName {
                var readable: Set<String> = []
                for key in expected {
                    guard let trip = key.split(separator: "/").first.flatMap({ TripID(String($0)) }) else { continue }
                    if try await companionMayRead(trip) { readable.insert(key) }
                }
                mustOffer = readable
            }
            let offered = Set(try await TripsView(try device.trips).visible.map(\.id))
            let missing = UnseenEditCheck.missing(
                expected: mustOffer, offered: offered, excused: excusedOffers[device.index] ?? [])
            guard missing.isEmpty else {
                let name = device.username == Self.companionName ? "the companion" : "d\(device.index)"
                return SimulationFailure(
                    kind: .lostText,
                    message: "\(name) does not offer back \(missing.joined(separator: ", ")), edited unseen by a delete"
                )
            }
        }
        return nil
    }

    /// The items a person's step took off the device (`trip/item`): deleted, or a restore offer
    /// settled (restored, or let go).
    static func itemsGone(before: TripsView, after: TripsView) -> Set<String> {
        func items(_ keys: some Sequence<String>) -> Set<String> {
            Set(keys.map { $0.split(separator: "/").prefix(2).joined(separator: "/") })
        }
        let offersBefore = before.visible.map(\.id).filter { $0.hasSuffix("#deleted") }
        let offersAfter = Set(after.visible.map(\.id))
        return items(before.shown.keys).subtracting(items(after.shown.keys))
            .union(items(offersBefore.filter { !offersAfter.contains($0) }))
    }

    /// No trip ops request was decided twice in one history of the server.
    func checkTripsAtMostOnce() -> SimulationFailure? {
        var seen: [String: Int] = [:]
        for opID in storage.tripRequests { seen[opID, default: 0] += 1 }
        let twice = seen.filter { $0.value > 1 }.keys.sorted()
        guard !twice.isEmpty else { return nil }
        return SimulationFailure(
            kind: .appliedTwice, message: "trip ops requests decided twice: \(twice.joined(separator: ", "))")
    }

    // MARK: - Picking and typing

    /// The device's live trip at `index` modulo their count, by id.
    static func pickTrip(_ index: Int, in database: TripsDatabase) async throws -> TripRecord? {
        let live = try await database.trips().map(\.id).sorted { $0.description < $1.description }
        guard !live.isEmpty else { return nil }
        return try await database.trip(live[index % live.count])
    }

    /// The item at `index` modulo the count, by id.
    static func pick(_ index: Int, from items: [TripItemRecord]) -> TripItemRecord? {
        let sorted = items.sorted { $0.id.description < $1.id.description }
        return sorted.isEmpty ? nil : sorted[index % sorted.count]
    }

    /// The ids of the trip's items in the group an item starting at `start` joins (its local day,
    /// or the untimed items), in order.
    static func group(of start: String?, in trip: TripRecord) -> [String] {
        let day = start.map { String($0.prefix(10)) }
        return trip.items.filter { item in item.value(.start).map { String($0.prefix(10)) } == day }
            .sorted(by: TripItemRecord.ordered).map(\.id.description)
    }

    /// The notes with line `line` replaced by `N<token>` (appended when `line` is past the end).
    static func notes(_ current: String?, line: Int, token: Int) -> String {
        var lines = (current ?? "").isEmpty ? [] : (current ?? "").components(separatedBy: "\n")
        if line < lines.count { lines[line] = "N\(token)" } else { lines.append("N\(token)") }
        return lines.joined(separator: "\n")
    }

    /// A start time unique to the token, by day and hour, in the daytime of one of three zones
    /// (never in a daylight-saving gap).
    static func startValue(token: Int) -> String {
        let zones = ["Europe/Lisbon", "America/New_York", "Asia/Tokyo"]
        let month = 1 + (token / 336) % 12
        let day = 1 + (token / 12) % 28
        let hour = 8 + token % 12
        let minute = (token * 7) % 60
        return String(format: "2027-%02d-%02dT%02d:%02d ", month, day, hour, minute) + zones[token % zones.count]
    }

    /// The ids a plan's `create` and `add` with this token make: the same on every run.
    static func tripID(token: Int) -> TripID {
        TripID(String(format: "7a1be000-0000-4000-8000-%012llx", UInt64(token))) ?? TripID()
    }

    static func itemID(token: Int) -> ItemID {
        ItemID(String(format: "17e30000-0000-4000-8000-%012llx", UInt64(token))) ?? ItemID()
    }
}
