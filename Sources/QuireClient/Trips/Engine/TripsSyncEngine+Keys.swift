import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

// MARK: - Following a trip's key rotations (issue 15)

extension TripsSyncEngine {
    /// The trip of `entry` as the feed lists it, with its key opened only when this device needs
    /// it: a trip new here, or a key of a newer epoch than the one held (with the chain's keys
    /// between them). A key that does not open is counted, and the trip keeps what it held.
    func feedTrip(_ entry: TripEntryDTO, _ id: TripID, _ report: inout SyncReport) async throws
        -> TripsDatabase.FeedTrip
    {
        var trip = TripsDatabase.FeedTrip(
            id: id, key: nil, role: entry.role, deleted: entry.deleted, revision: entry.revision,
            removed: entry.removed == true, epoch: entry.keyEpoch ?? TripKeyEpoch.first)
        guard !trip.removed else { return trip }
        if entry.rekeyDue == true, entry.role == "owner" { rekeyDue.insert(id) }
        let held = try await database.keyEpoch(id)
        // A rotated key of the epoch held is opened again to compare: a server restored from a
        // backup taken before a rotation, and rotated since, gives the epoch to another key
        // (companion seed 674: the values sealed with it would not open here).
        let mayDiffer =
            trip.epoch == held && trip.epoch > TripKeyEpoch.first && entry.keyForm == TripKeyEpoch.sealedForm
        if let held, trip.epoch < held || (trip.epoch == held && !mayDiffer) { return trip }
        do {
            let key =
                entry.keyForm == TripKeyEpoch.sealedForm
                ? try await sealedKeySource().openSealedKey(entry.wrappedKey, trip: id, epoch: trip.epoch)
                : try keys.unwrap(entry.wrappedKey, trip: id)
            if mayDiffer {
                guard try await database.keyring(id)?.current != key else { return trip }
                trip.replacesHeldKey = true
            }
            if trip.epoch > TripKeyEpoch.first {
                let chain = try await sealedKeySource().keys(of: id).chain
                trip.olderKeys = try TripKeyChain.olderKeys(
                    chain, newest: key, epoch: trip.epoch, down: mayDiffer ? TripKeyEpoch.first : (held ?? 0) + 1,
                    trip: id)
            }
            trip.key = key
        } catch let error as NotesAPIError where error.kind != .refused {
            throw error
        } catch {
            report.undecryptable += 1
        }
        return trip
    }

    /// Rotates the key of every trip this account owns that a member left since its last
    /// rotation. A rotation that fails waits for the next run (the feed still says it is due).
    func rotateDueKeys(_ report: inout SyncReport) async throws {
        guard let keySource else { return }
        for trip in rekeyDue.sorted(by: { $0.description < $1.description }) {
            try Task.checkCancellation()
            do {
                try await keySource.rotateKey(of: trip, removing: [], trustingNewKeys: false)
                report.keysRotated += 1
            } catch let error as NotesAPIError where SendDisposition(error) == .stopRun {
                throw error
            } catch {
                continue
            }
        }
        rekeyDue = []
    }

    /// After a request was refused because the trip's key rotated: pulls the feed (which lists
    /// the trip with its new key) and seals the frozen request again. When the feed has no newer
    /// key, the server is behind this device (restored from a backup taken before a rotation):
    /// the device goes back to the server's current epoch, whose key it holds. Returns the sealer
    /// of the key to send with, or nil when this device could not catch up (once per trip and run).
    func catchUpWithKey(of trip: TripID, request: TripOpsRequest, fallback: SymmetricKey256, _ report: inout SyncReport)
        async throws -> TripSealer?
    {
        guard !caughtUpWithKeys.contains(trip) else { return nil }
        caughtUpWithKeys.insert(trip)
        let before = try await database.keyEpoch(trip)
        _ = try await pullFeed(&report)
        var sealer = try await sealer(for: trip, fallback: fallback)
        if sealer.keyring.epoch == before, let keySource {
            // Not a newer key: a server restored from before a rotation, whose current key is older.
            let current = try await keySource.keys(of: trip).epoch
            try await database.rewindKey(trip, to: current)
            sealer = try await self.sealer(for: trip, fallback: fallback)
        }
        // The device may have taken the new key already (a pull after the request's first send
        // failed, seed 8 with a companion): what counts is the key the request was sealed with.
        guard sealer.keyring.epoch != before || Self.sealedWithOtherKey(request, than: sealer.keyring.epoch)
        else { return nil }
        _ = try await database.resealFrozen(request, with: sealer)
        return sealer
    }

    /// The sealer to open `fields` of `trip` with. Values sealed with a key newer than any this
    /// device holds (a member was removed and another device sent under the new key before this
    /// one pulled the trips feed) are not skipped as unreadable under a cursor that moves past
    /// them, which would strand them here (companion seed 334): the feed is pulled first, for the
    /// new key. When it still has none, the run fails and the trip keeps its cursor.
    func sealer(opening fields: [TripFieldDTO], of trip: TripID, with sealer: TripSealer, _ report: inout SyncReport)
        async throws -> TripSealer
    {
        let newest =
            fields.lazy.filter { !$0.field.hasPrefix(WireRoutes.memberFieldPrefix) }
            .compactMap { $0.value.flatMap(TripKeyEpoch.of) }.max() ?? TripKeyEpoch.first
        guard newest > sealer.keyring.epoch else { return sealer }
        _ = try await pullFeed(&report)
        let caughtUp = try await self.sealer(for: trip, fallback: sealer.keyring.current)
        guard caughtUp.keyring.epoch >= newest else {
            throw SyncFailure(
                kind: .transient,
                message: "A trip's newer key has not reached this device yet; its changes wait until it does.")
        }
        return caughtUp
    }

    /// Whether a value of the frozen request was sealed with a key of another epoch than `epoch`.
    static func sealedWithOtherKey(_ request: TripOpsRequest, than epoch: Int) -> Bool {
        request.ops.contains { op in
            guard op.field != WireRoutes.deletedField, let sealed = op.sealed?.value else { return false }
            return TripKeyEpoch.of(sealed) != epoch
        }
    }

    /// The sealer of every key of `trip` this device holds.
    func sealer(for trip: TripID, fallback: SymmetricKey256) async throws -> TripSealer {
        TripSealer(trip: trip, keyring: try await database.keyring(trip) ?? TripKeyring(key: fallback))
    }

    private func sealedKeySource() throws -> any TripKeySource {
        guard let keySource else {
            throw TripSealingError(.unreadable, "this device cannot open keys sealed to its sharing key here")
        }
        return keySource
    }
}
