import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// A trip's end-to-end encryption (DESIGN.md "Travel plans"): every field value sealed with the
/// trip's key, and a keyed hash of it so the server can tell "the same value" without reading it.
///
/// `seal` writes the value's UTF-8 with AES-256-GCM under the trip key, with associated data
/// `quire-trip-field-v1|<trip>|<item or empty>|<field>`, as base64 of the combined form: a value
/// moved by the server to another field, item or trip no longer opens. `valueHash` is lowercase
/// hex HMAC-SHA256 under a hash key derived from the trip key (HKDF-SHA256, info naming the trip)
/// over `<item>|<field>|<value>`: equal values of one field hash equally, and the hash of one
/// field says nothing about another's. `deleted` travels in plain text (`true`/`false`, which the
/// server reads to make a delete win), with its hash. A cleared field is `nil` with no hash.
///
/// `open` never traps and never puts a value in its error.
public struct TripSealer: Sendable {
    public let trip: TripID
    private let key: SymmetricKey256
    private let hashKey: Data

    public init(trip: TripID, key: SymmetricKey256) {
        self.trip = trip
        self.key = key
        self.hashKey = HKDF.sha256(
            key: key.data, salt: Data("quire-trip-v1".utf8),
            info: Data("quire-trip-value-hash|\(trip)".utf8), length: 32)
    }

    /// Seals `plaintext` for the field `field` of `item` (nil: the trip's own field).
    /// Two seals of one value differ (a fresh nonce); their hashes are equal.
    /// - Throws: ``TripSealingError`` `.tooLarge` when the sealed value passes
    ///   `WireRoutes.maxTripValueBytes`, `.failed` when the crypto library fails.
    public func seal(_ plaintext: String?, item: ItemID?, field: String) throws -> SealedFieldValue {
        guard let plaintext else { return SealedFieldValue(value: nil, valueHash: nil) }
        let hash = valueHash(plaintext, item: item, field: field)
        if field == WireRoutes.deletedField { return SealedFieldValue(value: plaintext, valueHash: hash) }
        let sealed: String
        do {
            sealed = try AESGCM.seal(
                Data(plaintext.utf8), key: key,
                associatedData: Self.associatedData(trip: trip, item: item, field: field)
            ).base64EncodedString()
        } catch {
            throw TripSealingError(.failed, "sealing failed: \(error)")
        }
        guard sealed.utf8.count <= WireRoutes.maxTripValueBytes else {
            throw TripSealingError(
                .tooLarge,
                "This value is too long to sync (\(sealed.utf8.count / 1024) KB encrypted; a field "
                    + "holds at most \(WireRoutes.maxTripValueBytes / 1024) KB). Shorten it; it "
                    + "stays on this device until then.")
        }
        return SealedFieldValue(value: sealed, valueHash: hash)
    }

    /// Opens a value sealed by `seal` for the same trip, item and field.
    /// - Throws: ``TripSealingError`` `.unreadable` when it is not base64, does not authenticate
    ///   (another key, field, item or trip, or tampered) or is not text; the reason holds none of it.
    public func open(_ value: String?, item: ItemID?, field: String) throws -> String? {
        guard let value else { return nil }
        if field == WireRoutes.deletedField { return value }
        guard let combined = Data(base64Encoded: value) else {
            throw TripSealingError(.unreadable, "the value of \(field) is not base64")
        }
        let plaintext: Data
        do {
            plaintext = try AESGCM.open(
                combined, key: key, associatedData: Self.associatedData(trip: trip, item: item, field: field))
        } catch {
            throw TripSealingError(
                .unreadable,
                "the value of \(field) does not authenticate (another key, field, item or trip, or tampered)")
        }
        guard let text = String(data: plaintext, encoding: .utf8) else {
            throw TripSealingError(.unreadable, "the value of \(field) is not text")
        }
        return text
    }

    /// The keyed hash of `plaintext` as the field `field` of `item`: lowercase hex.
    public func valueHash(_ plaintext: String, item: ItemID?, field: String) -> String {
        let input = Data("\(item?.description ?? "")|\(field)|".utf8) + Data(plaintext.utf8)
        return HMAC.sha256(key: hashKey, data: input).map { String(format: "%02x", $0) }.joined()
    }

    static func associatedData(trip: TripID, item: ItemID?, field: String) -> Data {
        Data("quire-trip-field-v1|\(trip)|\(item?.description ?? "")|\(field)".utf8)
    }
}
