import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

// MARK: - A trip's key epochs (issue 15)

extension TripsDatabase {
    /// Every key of `trip` this device holds, the current one first; nil for a trip it does not have.
    package func keyring(_ trip: TripID) throws -> TripKeyring? {
        guard
            let (current, epoch) = try connection.queryFirst(
                "SELECT key, key_epoch FROM trips WHERE id = ?", trip.description,
                map: { row in SymmetricKey256(data: row.blob(0)).map { ($0, row.int(1)) } }) ?? nil
        else { return nil }
        var older: [Int: SymmetricKey256] = [:]
        for (epoch, key) in try connection.query(
            "SELECT epoch, key FROM trip_keys WHERE trip_id = ?", bindings: [trip.description],
            map: { row in (row.int(0), SymmetricKey256(data: row.blob(1))) })
        {
            if let key { older[epoch] = key }
        }
        return TripKeyring(current: current, epoch: epoch, older: older)
    }

    /// The epoch of the trip's current key here; nil for a trip this device does not have.
    package func keyEpoch(_ trip: TripID) throws -> Int? {
        try connection.queryFirst("SELECT key_epoch FROM trips WHERE id = ?", trip.description) { $0.int(0) }
    }

    /// Takes `key` as the trip's current key at `epoch`, keeping the one it replaces and `older`
    /// (the chain's keys between them); nothing changes unless `epoch` is newer than the one held.
    package func adoptKey(_ trip: TripID, key: SymmetricKey256, epoch: Int, older: [Int: SymmetricKey256]) throws {
        try write { try adoptKeyInTransaction(trip, key: key, epoch: epoch, older: older) }
    }

    func adoptKeyInTransaction(_ trip: TripID, key: SymmetricKey256, epoch: Int, older: [Int: SymmetricKey256])
        throws
    {
        guard let held = try keyEpoch(trip), epoch > held else { return }
        try connection.run(
            "INSERT OR IGNORE INTO trip_keys (trip_id, epoch, key) SELECT id, key_epoch, key FROM trips WHERE id = ?",
            trip.description)
        try keepOlderKeys(trip, older.filter { $0.key > held && $0.key < epoch })
        try connection.run(
            "UPDATE trips SET key = ?, key_epoch = ? WHERE id = ?", key.data, epoch, trip.description)
    }

    /// Takes `key` as the trip's key of `epoch`, the epoch it holds, in place of the one it held,
    /// and `older` in place of the keys of those epochs: the server's history gave the epoch to
    /// another key (restored from a backup taken before a rotation, then rotated again), and
    /// what it holds now was sealed with these. Nothing changes unless `epoch` is the one held.
    func replaceKeyInTransaction(_ trip: TripID, key: SymmetricKey256, epoch: Int, older: [Int: SymmetricKey256])
        throws
    {
        guard try keyEpoch(trip) == epoch else { return }
        for (olderEpoch, olderKey) in older where olderEpoch < epoch {
            try connection.run(
                "INSERT OR REPLACE INTO trip_keys (trip_id, epoch, key) VALUES (?, ?, ?)", trip.description,
                olderEpoch, olderKey.data)
        }
        try connection.run("DELETE FROM trip_keys WHERE trip_id = ? AND epoch >= ?", trip.description, epoch)
        try connection.run("UPDATE trips SET key = ? WHERE id = ?", key.data, trip.description)
    }

    /// Goes back to the trip's key of `epoch`, for a server restored from a backup taken before
    /// the rotations after it: what it forgot was sealed with keys it no longer knows of, and a
    /// rotation it makes next reuses their epochs, so the keys of the forgotten epochs go.
    /// Nothing changes unless this device holds the key of `epoch` and it is older than the current.
    package func rewindKey(_ trip: TripID, to epoch: Int) throws {
        try write { try rewindKeyInTransaction(trip, to: epoch) }
    }

    func rewindKeyInTransaction(_ trip: TripID, to epoch: Int) throws {
        guard let keyring = try keyring(trip), epoch < keyring.epoch, let key = keyring.key(epoch) else { return }
        try connection.run("DELETE FROM trip_keys WHERE trip_id = ? AND epoch >= ?", trip.description, epoch)
        try connection.run("UPDATE trips SET key = ?, key_epoch = ? WHERE id = ?", key.data, epoch, trip.description)
    }

    func keepOlderKeys(_ trip: TripID, _ keys: [Int: SymmetricKey256]) throws {
        for (epoch, key) in keys {
            try connection.run(
                "INSERT OR IGNORE INTO trip_keys (trip_id, epoch, key) VALUES (?, ?, ?)", trip.description, epoch,
                key.data)
        }
    }

    /// Seals the frozen request's values again with `sealer` (the trip's new key), keeping its
    /// op id: the server refused it with `trip_key_rotated` without recording that op id, so the
    /// resealed request is the first it will record under it. Returns it as it will be sent.
    package func resealFrozen(_ request: TripOpsRequest, with sealer: TripSealer) throws -> TripOpsRequest {
        try write {
            var resealed = request
            for index in resealed.ops.indices {
                let op = resealed.ops[index]
                let sealed = try sealer.seal(op.value, item: op.item, field: op.field)
                try connection.run(
                    "UPDATE outbox SET sealed_value = ?, value_hash = ? WHERE seq = ? AND request_id = ?",
                    sealed.value, sealed.valueHash, op.seq, request.opID)
                resealed.ops[index].sealed = sealed
            }
            return resealed
        }
    }
}
