import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// A trip's key chain (issue 15): each rotation stores the previous key sealed with the new one,
/// AES-256-GCM with associated data `quire-trip-key-chain-v1|<trip>|<new epoch>`. Whoever holds
/// the newest key opens every older one, walking down; whoever holds only an older key cannot
/// go up. The server stores the links and can open none.
public enum TripKeyChain {
    /// `previous` (the key of `epoch - 1`) sealed with `new`, the key of `epoch`.
    public static func link(previous: SymmetricKey256, new: SymmetricKey256, trip: TripID, epoch: Int) throws -> String
    {
        do {
            return try AESGCM.seal(previous.data, key: new, associatedData: context(trip, epoch)).base64EncodedString()
        } catch {
            throw TripSealingError(.failed, "sealing the previous trip key failed: \(error)")
        }
    }

    /// Every key older than `epoch` down to `oldest` (inclusive), opened from `chain` starting
    /// with `newest`, the key of `epoch`.
    /// - Throws: ``TripSealingError`` `.unreadable` when a link is missing or does not open (the
    ///   server sent another trip's chain, or tampered with one).
    public static func olderKeys(
        _ chain: [TripKeyLinkDTO], newest: SymmetricKey256, epoch: Int, down oldest: Int = TripKeyEpoch.first,
        trip: TripID
    ) throws -> [Int: SymmetricKey256] {
        let links = Dictionary(chain.map { ($0.epoch, $0.previousKey) }, uniquingKeysWith: { first, _ in first })
        var keys: [Int: SymmetricKey256] = [:]
        var key = newest
        var current = epoch
        while current > max(oldest, TripKeyEpoch.first) {
            guard let sealed = links[current], let combined = Data(base64Encoded: sealed),
                let opened = try? AESGCM.open(combined, key: key, associatedData: context(trip, current)),
                let previous = SymmetricKey256(data: opened)
            else {
                throw TripSealingError(
                    .unreadable, "the key chain of trip \(trip) does not open at epoch \(current)")
            }
            current -= 1
            keys[current] = previous
            key = previous
        }
        return keys
    }

    private static func context(_ trip: TripID, _ epoch: Int) -> Data {
        Data("quire-trip-key-chain-v1|\(trip)|\(epoch)".utf8)
    }
}
