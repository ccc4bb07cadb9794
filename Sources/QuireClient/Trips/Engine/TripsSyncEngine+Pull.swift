import Foundation
import QuireTrips
import QuireWire

// MARK: - Pull

extension TripsSyncEngine {
    /// Pulls the account's trips feed from its cursor, then every trip it shows changed: from
    /// the trip's cursor, page by page, or from its snapshot (a trip new to this device, or one
    /// whose cursor expired). A server without trips, with nothing waiting here, is no failure.
    func pullAll(_ report: inout SyncReport) async throws {
        guard try await pullFeed(&report) else { return }
        for target in try await database.tripsToPull() {
            try Task.checkCancellation()
            let sealer = try await sealer(for: target.trip, fallback: target.key)
            do {
                guard let cursor = target.cursor else {
                    try await pullSnapshot(target.trip, sealer: sealer, &report)
                    continue
                }
                try await pullChanges(
                    target.trip, from: cursor, known: target.known, caughtUpThrough: target.feedRevision,
                    sealer: sealer, &report)
            } catch let error as NotesAPIError where Self.noSuchTrip(error) {
                if try await database.serverForgotTrip(target.trip) {
                    report.reuploaded += 1
                } else if let removal = try await database.removeLocalCopy(of: target.trip) {
                    // Another account's trip the server no longer shares with this one (a restore
                    // forgot the join, or the trip went): this account is no longer a member, as
                    // after a removal; its device says what was lost (companion seed 3159).
                    report.tripsRemoved.append(removal)
                }
            }
        }
    }

    /// Whether `error` says the server has no such trip. For a trip this account owns, the
    /// server forgot it (restored from a backup from before the trip was made): it is queued to
    /// be made again, with every value this device holds (``TripsDatabase/serverForgotTrip(_:)``).
    /// Another account's trip is no longer this account's to pull: its copy goes, as after a removal.
    static func noSuchTrip(_ error: NotesAPIError) -> Bool {
        error.status == 404 && error.code == "not_found"
    }

    /// Applies every page of the trips feed. Returns false when the server keeps no trips.
    func pullFeed(_ report: inout SyncReport) async throws -> Bool {
        var cursor = try await database.tripsFeedCursor()
        var restarted = false
        while true {
            try Task.checkCancellation()
            let page: TripsFeedPageDTO
            do {
                page = try await api.tripsFeed(since: cursor, limit: pageLimit, wait: 0)
            } catch let error as NotesAPIError {
                if Self.serverKeepsNoTrips(error) {
                    guard try await database.tripsToPush().isEmpty else {
                        throw SyncFailure(kind: .transient, message: Self.noTripsOnServer)
                    }
                    return false
                }
                // A cursor the server no longer takes: list every trip again, once per run.
                let stale = error.kind == .cursorExpired || error.code == "invalid_cursor"
                guard stale, !restarted, cursor != nil else { throw error }
                restarted = true
                try await database.resetTripsFeed()
                cursor = nil
                continue
            }
            var trips: [TripsDatabase.FeedTrip] = []
            for entry in page.trips {
                guard let id = TripID(entry.id) else { continue }
                trips.append(try await feedTrip(entry, id, &report))
            }
            let next = Cursor(page.nextCursor)
            if page.hasMore, next == cursor {
                throw NotesAPIError(kind: .invalidResponse, message: "The server's trips feed did not move forward.")
            }
            report.tripsRemoved += try await database.applyTripsFeed(
                trips, cursor: next, account: account, username: keySource?.username)
            cursor = next
            if !page.hasMore { return true }
        }
    }

    /// Applies the trip's changes page by page, each with its cursor, every page checking
    /// `known` (this device's newest acknowledged write); on 410, its snapshot, and on
    /// `invalid_cursor` too: the server no longer has the history the cursor or the write came
    /// from (restored from a backup), and the snapshot sends the forgotten writes again.
    private func pullChanges(
        _ trip: TripID, from start: Cursor, known: [Cursor], caughtUpThrough feedRevision: Int, sealer: TripSealer,
        _ report: inout SyncReport
    ) async throws {
        var cursor = start
        var sealer = sealer
        while true {
            try Task.checkCancellation()
            let page: TripChangesPageDTO
            do {
                page = try await api.changes(of: trip, since: cursor, known: known, limit: pageLimit)
            } catch let error as NotesAPIError where error.kind == .cursorExpired || error.code == "invalid_cursor" {
                report.fullResync = true
                try await pullSnapshot(
                    trip, sealer: sealer, serverForgot: error.kind != .cursorExpired, &report)
                return
            }
            let fields = try await open(page.changes, of: trip, with: &sealer, &report)
            let next = Cursor(page.nextCursor)
            if page.hasMore, next == cursor {
                throw NotesAPIError(kind: .invalidResponse, message: "The trip's changes did not move forward.")
            }
            report.received += try await database.applyTripChanges(
                trip, fields: fields, cursor: next, caughtUpThrough: page.hasMore ? 0 : feedRevision,
                verified: page.hasMore ? [] : known)
            cursor = next
            if !page.hasMore { return }
        }
    }

    /// Replaces the trip's confirmed values with its snapshot, keeping what waits here (and, when
    /// the server forgot this device's writes, sending them again).
    func pullSnapshot(
        _ trip: TripID, sealer: TripSealer, serverForgot: Bool = false, _ report: inout SyncReport
    ) async throws {
        var snapshot = try await api.snapshot(of: trip)
        if try await leftAgain(trip, snapshot: snapshot) { return }
        if try await removedAgain(
            trip, listed: Self.listedEntries(snapshot), role: snapshot.trip.role, &report)
        {
            snapshot = try await api.snapshot(of: trip)
        }
        var sealer = sealer
        let fields = try await open(snapshot.fields, of: trip, with: &sealer, &report)
        report.received += try await database.replaceWithSnapshot(
            TripsDatabase.FeedTrip(
                id: trip, key: nil, role: snapshot.trip.role, deleted: snapshot.trip.deleted,
                revision: snapshot.trip.revision),
            fields: fields, cursor: Cursor(snapshot.cursor), serverForgot: serverForgot)
    }

    /// The fields opened with the trip's keys; one that does not open (or names a malformed item)
    /// is counted and skipped, never applied. Static: what one sealer opens.
    static func open(_ dtos: [TripFieldDTO], with sealer: TripSealer)
        -> (fields: [TripsDatabase.PulledField], unopened: [TripFieldDTO])
    {
        var fields: [TripsDatabase.PulledField] = []
        var unopened: [TripFieldDTO] = []
        for dto in dtos {
            var item: ItemID?
            if let text = dto.item {
                guard let parsed = ItemID(text) else {
                    unopened.append(dto)
                    continue
                }
                item = parsed
            }
            let value: String?
            do {
                // A membership entry is written by the server in plain text (the role).
                value =
                    item == nil && dto.field.hasPrefix(WireRoutes.memberFieldPrefix)
                    ? dto.value : try sealer.open(dto.value, item: item, field: dto.field)
            } catch {
                unopened.append(dto)
                continue
            }
            fields.append(
                TripsDatabase.PulledField(
                    item: item, field: dto.field, value: value, revision: dto.revision,
                    seenRevision: dto.seenRevision, author: dto.author?.lowercased()))
        }
        return (fields, unopened)
    }
}
