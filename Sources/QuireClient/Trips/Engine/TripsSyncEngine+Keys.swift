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
        trip.rekeyDue = entry.rekeyDue == true
        trip.deleteSeenRevision = entry.deleteSeenRevision
        let held = try await database.keyEpoch(id)
        // A server whose key is older than the one held was restored from a backup taken before a
        // rotation: the device goes back to its epoch (a removal may have gone with the rotation).
        if let held, trip.epoch < held {
            trip.rewindsHeldKey = true
        }
        // A rotated key of the epoch held, or gone back to, is opened again to compare: a server
        // restored from a backup taken before a rotation, and rotated since, gives the epoch to
        // another key (companion seeds 674 and 1962: the values sealed with it would not open).
        let mayDiffer =
            (trip.epoch == held || trip.rewindsHeldKey) && trip.epoch > TripKeyEpoch.first
            && entry.keyForm == TripKeyEpoch.sealedForm
        if let held, trip.epoch <= held, !mayDiffer { return trip }
        do {
            let key =
                entry.keyForm == TripKeyEpoch.sealedForm
                ? try await sealedKeySource().openSealedKey(entry.wrappedKey, trip: id, epoch: trip.epoch)
                : try keys.unwrap(entry.wrappedKey, trip: id)
            if mayDiffer {
                guard try await database.keyring(id)?.key(trip.epoch) != key else { return trip }
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
            try await database.markKeyWorkDue(trip, .removalCheck)
            try await database.rewindKey(trip, to: current)
        }
        // A removal that rotated may be forgotten with the rotation: it is made again first, and
        // nothing is sent while it cannot be.
        try await finishKeyWork(on: trip, &report)
        sealer = try await self.sealer(for: trip, fallback: fallback)
        // The device may have taken the new key already (a pull after the request's first send
        // failed, seed 8 with a companion): what counts is the key the request was sealed with.
        guard
            sealer.keyring.epoch != before || Self.sealedWithOtherKey(request, than: sealer.keyring.epoch)
                || !Self.opens(request, with: sealer)
        else { return nil }
        _ = try await database.resealFrozen(request, with: sealer)
        return sealer
    }

    /// The fields of `trip` opened with `sealer`, each one that does not open counted and
    /// skipped. A value that did not open may be sealed with a key this device does not hold
    /// yet: newer than its own (a rotation another device sent under before this one pulled the
    /// trips feed, companion seed 334), or another key of the epoch it holds (a server restored
    /// from before a rotation and rotated again, seed 674). Skipped, it would stay behind a cursor
    /// that moves past it, so the trips feed is pulled first (it brings the key) and the fields
    /// are opened again; when a newer key is still missing, the run fails and the cursor stays.
    func open(_ dtos: [TripFieldDTO], of trip: TripID, with sealer: inout TripSealer, _ report: inout SyncReport)
        async throws -> [TripsDatabase.PulledField]
    {
        var opened = Self.open(dtos, with: sealer)
        let epochs = opened.unopened.compactMap { $0.value.flatMap(TripKeyEpoch.of) }
        let held = sealer.keyring.epoch
        if epochs.contains(where: { $0 > held || ($0 == held && held > TripKeyEpoch.first) }) {
            _ = try await pullFeed(&report)
            sealer = try await self.sealer(for: trip, fallback: sealer.keyring.current)
            opened = Self.open(dtos, with: sealer)
            let newest = opened.unopened.compactMap { $0.value.flatMap(TripKeyEpoch.of) }.max() ?? TripKeyEpoch.first
            guard newest <= sealer.keyring.epoch else {
                throw SyncFailure(
                    kind: .transient,
                    message: "A trip's newer key has not reached this device yet; its changes wait until it does.")
            }
        }
        report.undecryptable += opened.unopened.count
        return opened.fields
    }

    /// `request`, sealed again with `sealer` when its values no longer open with the keys this
    /// device holds: the key they were sealed with was replaced by another key of its epoch (the
    /// server's, after a restore and a rotation). The server cannot have recorded it under that
    /// key, which its history never had, so it goes under the same op id.
    func resealedIfItsKeyWasReplaced(_ request: TripOpsRequest, with sealer: TripSealer) async throws
        -> TripOpsRequest
    {
        Self.opens(request, with: sealer) ? request : try await database.resealFrozen(request, with: sealer)
    }

    /// Whether the first sealed value of `request` opens with `sealer`'s keys.
    static func opens(_ request: TripOpsRequest, with sealer: TripSealer) -> Bool {
        guard let op = request.ops.first(where: { $0.field != WireRoutes.deletedField && $0.sealed?.value != nil })
        else { return true }
        return (try? sealer.open(op.sealed?.value, item: op.item, field: op.field)) != nil
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
