import Foundation
import QuireTrips
import QuireWire

// MARK: - A trip this account left, listed again by a restored server

extension TripsSyncEngine {
    /// Whether `snapshot`, of a trip this account left, lists the membership the leave ended: a
    /// server restored from a backup taken before the leave. The device then leaves again and
    /// takes nothing from it (its copy, made by the feed, goes). A newer membership entry is a
    /// join since: the departure is forgotten and the trip is pulled as any other.
    func leftAgain(_ trip: TripID, snapshot: TripSnapshotDTO) async throws -> Bool {
        guard let departure = try await database.departure(of: trip) else { return false }
        let entry = snapshot.fields.first { $0.item == nil && $0.field == departure.memberField }
        guard let entry, entry.value != nil, (entry.seenRevision ?? entry.revision) <= departure.joinRevision else {
            try await database.forgetDeparture(trip)
            return false
        }
        try await database.removeLocalCopy(of: trip)
        do {
            try await keySource?.leaveAgain(trip)
        } catch let error as NotesAPIError where SendDisposition(error) == .stopRun {
            throw error
        } catch {
            // Tried again the next time the feed lists the trip.
        }
        return true
    }
}

// MARK: - A member this device saw removed, listed again by a restored server

extension TripsSyncEngine {
    /// A membership entry as the server lists it: `member.<username>` and its revision.
    struct ListedEntry: Sendable, Equatable {
        var field: String
        var revision: Int
    }

    /// The membership entries `snapshot` lists (a member, not a departure).
    static func listedEntries(_ snapshot: TripSnapshotDTO) -> [ListedEntry] {
        snapshot.fields.compactMap { field in
            guard field.item == nil, field.value != nil, field.field.hasPrefix(WireRoutes.memberFieldPrefix)
            else { return nil }
            // A role change names the join that started the membership.
            return ListedEntry(field: field.field, revision: field.seenRevision ?? field.revision)
        }
    }

    /// The membership entries of the members `keys` lists (each with its entry's revision).
    static func listedEntries(_ keys: TripKeysDTO) -> [ListedEntry] {
        keys.members.compactMap { member in
            member.entryRevision.map {
                ListedEntry(field: WireRoutes.memberFieldPrefix + member.username.lowercased(), revision: $0)
            }
        }
    }

    /// Makes again the removals the server forgot in `trip`, from its members as the server
    /// lists them now, then ends the trip's check. Throws what stopped it (a failed request, or a
    /// rotation this device may not make: a remaining member's key changed), and the check stays
    /// due. A server that refuses this account the trip's keys (no such trip, or no longer an
    /// owner) ends the check too: there is nothing this device can remove, and the trip's own
    /// requests meet the same answer.
    func checkRemovals(_ trip: TripID, _ report: inout SyncReport) async throws {
        guard let keySource else { return try await database.keyWorkDone(trip, .removalCheck) }
        let keys: TripKeysDTO
        do {
            keys = try await keySource.keys(of: trip)
        } catch let error as NotesAPIError where error.kind == .refused {
            return try await database.keyWorkDone(trip, .removalCheck)
        }
        _ = try await removedAgain(
            trip, listed: Self.listedEntries(keys), role: try await database.role(of: trip), &report)
        try await database.keyWorkDone(trip, .removalCheck)
    }

    /// Removes again the members whose removal this device saw and the server no longer knows
    /// of: a server restored from a backup taken before the removal lists the membership it ended
    /// (``TripsDatabase/endedMemberships(of:)``; a newer join is a join since). Two things show
    /// it: the trip's snapshot after `invalid_cursor`, and a server whose key is older than this
    /// device's (the removal's rotation forgotten too). Only an owner's device can remove; it does
    /// so before it sends anything into the trip, so nothing typed after the removal reaches the
    /// removed member, whose own devices may never sync again. The removal rotates the key from
    /// the restored server's epoch (a rotation it forgot is undone here first). Returns whether
    /// it removed anyone (what the server listed is then out of date).
    func removedAgain(_ trip: TripID, listed: [ListedEntry], role: String?, _ report: inout SyncReport)
        async throws -> Bool
    {
        guard role == "owner", let keySource else { return false }
        let own = WireRoutes.memberFieldPrefix + keySource.username.lowercased()
        let back = try await database.endedMemberships(of: trip).filter { ended in
            ended.memberField != own
                && listed.contains { $0.field == ended.memberField && $0.revision <= ended.joinRevision }
        }
        guard !back.isEmpty else { return false }
        // Until the removal is made again, the trip sends nothing: a failure below leaves the
        // device holding the key the removed member holds too.
        try await database.markKeyWorkDue(trip, .removalCheck)
        // The feed brings any key this device lacks; a key the restored server forgot goes.
        _ = try await pullFeed(&report)
        try await database.rewindKey(trip, to: try await keySource.keys(of: trip).epoch)
        let members = back.map { String($0.memberField.dropFirst(WireRoutes.memberFieldPrefix.count)) }
        do {
            try await keySource.rotateKey(of: trip, removing: members, trustingNewKeys: false)
        } catch let refusal as TripSharing.Refusal {
            // A remaining member's key changed, or the members changed meanwhile: the trip waits
            // until the person removes them again.
            throw NotesAPIError(
                kind: .transient,
                message: "\(members.joined(separator: ", ")), removed before the server was restored from a "
                    + "backup, could not be removed again (\(refusal.description)); nothing is sent into the trip "
                    + "until then: run 'quire trip members' and 'quire trip remove'.")
        }
        try await database.keyWorkDone(trip, .removalCheck)
        report.keysRotated += 1
        return true
    }
}
