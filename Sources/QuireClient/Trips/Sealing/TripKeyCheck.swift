import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// A trip key's check (``TripKeyCheckText``): the first 16 bytes of HMAC-SHA256 under the key
/// of `quire-trip-key-check-v1|<trip>|<epoch>`, base64url. It says nothing of the key, and lets
/// the server refuse values sealed with another key of the trip's current epoch (a server
/// restored from a backup taken before a rotation, then rotated again, gives an epoch out twice).
enum TripKeyCheck {
    static func text(of key: SymmetricKey256, trip: TripID, epoch: Int) -> String {
        let mac = HMAC.sha256(key: key.data, data: Data("quire-trip-key-check-v1|\(trip)|\(epoch)".utf8))
        return mac.prefix(16).base64URLEncodedString()
    }

    /// The check to send with `request`: of the key of its values' epoch (2 or later), or nil
    /// when it carries no sealed value or only values of the first epoch.
    static func text(for request: TripOpsRequest, keyring: TripKeyring) -> String? {
        guard let epoch = epoch(of: request), epoch > TripKeyEpoch.first, let key = keyring.key(epoch)
        else { return nil }
        return text(of: key, trip: request.trip, epoch: epoch)
    }

    /// The epoch of the request's first sealed value (every value of a request is sealed with one
    /// key); nil when it has none (deletes and cleared fields only).
    static func epoch(of request: TripOpsRequest) -> Int? {
        request.ops.lazy.filter { $0.field != WireRoutes.deletedField }.compactMap { $0.sealed?.value }.first
            .flatMap(TripKeyEpoch.of)
    }
}
