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
/// **Key epochs** (issue 15). A trip's key rotates when a member leaves. A value sealed with the
/// key of epoch N ≥ 2 is marked `eN.` before its base64 (``TripKeyEpoch``) and its associated
/// data is `quire-trip-field-v2|<trip>|<N>|<item or empty>|<field>`; its hash key is derived
/// with info `quire-trip-value-hash|<trip>|<N>`, so a removed member, who holds only older keys,
/// can neither open a newer value nor test guesses against its hash. Epoch 1 is exactly as
/// before rotation existed. `seal` uses the keyring's current key; `open` the key its mark names.
///
/// `open` never traps and never puts a value in its error.
public struct TripSealer: Sendable {
    public let trip: TripID
    public let keyring: TripKeyring
    private let hashKey: Data

    /// A trip that never rotated.
    public init(trip: TripID, key: SymmetricKey256) {
        self.init(trip: trip, keyring: TripKeyring(key: key))
    }

    public init(trip: TripID, keyring: TripKeyring) {
        self.trip = trip
        self.keyring = keyring
        let epoch = keyring.epoch == TripKeyEpoch.first ? "" : "|\(keyring.epoch)"
        self.hashKey = HKDF.sha256(
            key: keyring.current.data, salt: Data("quire-trip-v1".utf8),
            info: Data("quire-trip-value-hash|\(trip)\(epoch)".utf8), length: 32)
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
            let epoch = keyring.epoch
            sealed = TripKeyEpoch.mark(
                try AESGCM.seal(
                    Data(plaintext.utf8), key: keyring.current,
                    associatedData: Self.associatedData(trip: trip, epoch: epoch, item: item, field: field)
                ).base64EncodedString(), epoch: epoch)
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

    /// Opens a value sealed by `seal` for the same trip, item and field, with any key epoch this
    /// keyring holds.
    /// - Throws: ``TripSealingError`` `.unreadable` when it is not base64, names an epoch this
    ///   device holds no key of, does not authenticate (another key, field, item or trip, or
    ///   tampered) or is not text; the reason holds none of it.
    public func open(_ value: String?, item: ItemID?, field: String) throws -> String? {
        guard let value else { return nil }
        if field == WireRoutes.deletedField { return value }
        guard let epoch = TripKeyEpoch.of(value),
            let combined = Data(base64Encoded: String(TripKeyEpoch.unmarked(value)))
        else {
            throw TripSealingError(.unreadable, "the value of \(field) is not base64")
        }
        guard let key = keyring.key(epoch) else {
            throw TripSealingError(
                .unreadable, "the value of \(field) is sealed with key epoch \(epoch), which this device does not hold")
        }
        let plaintext: Data
        do {
            plaintext = try AESGCM.open(
                combined, key: key,
                associatedData: Self.associatedData(trip: trip, epoch: epoch, item: item, field: field))
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
        return HexText.string(HMAC.sha256(key: hashKey, data: input))
    }

    static func associatedData(trip: TripID, epoch: Int, item: ItemID?, field: String) -> Data {
        guard epoch != TripKeyEpoch.first else {
            return Data("quire-trip-field-v1|\(trip)|\(item?.description ?? "")|\(field)".utf8)
        }
        return Data("quire-trip-field-v2|\(trip)|\(epoch)|\(item?.description ?? "")|\(field)".utf8)
    }
}
