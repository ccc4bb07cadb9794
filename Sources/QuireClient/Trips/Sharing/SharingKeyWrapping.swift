import Foundation
import QuireCrypto
import QuireTrips
import QuireWire

/// How the account's private sharing key and the trip keys it is given travel (issue 15).
///
/// - The private key goes to the server sealed with the notes key, AES-256-GCM with associated
///   data `quire-sharing-key-v1|<account>`, so every device of the account can open it and the
///   server cannot.
/// - A trip key for an invitee is sealed to the invitee's public key (``PublicKeySeal``) with
///   associated data `quire-trip-share-v1|<trip>|<invitee username>`: moved to another trip or
///   person by the server, it no longer opens.
public struct SharingKeyWrapping: Sendable {
    private let notesKey: SymmetricKey256
    private let account: AccountID

    public init(notesKey: SymmetricKey256, account: AccountID) {
        self.notesKey = notesKey
        self.account = account
    }

    public func wrap(_ privateKey: X25519.PrivateKey) throws -> String {
        try AESGCM.seal(privateKey.rawRepresentation, key: notesKey, associatedData: privateKeyContext)
            .base64EncodedString()
    }

    /// - Throws: ``TripSealingError`` `.unreadable` when it does not open with this account's key.
    public func unwrap(_ wrapped: String) throws -> X25519.PrivateKey {
        guard let combined = Data(base64Encoded: wrapped),
            let raw = try? AESGCM.open(combined, key: notesKey, associatedData: privateKeyContext),
            let key = try? X25519.PrivateKey(rawRepresentation: raw)
        else {
            throw TripSealingError(.unreadable, "this account's sharing key does not open with its notes key")
        }
        return key
    }

    /// `tripKey` (of key epoch `epoch`) sealed for `invitee`, whose public key is `publicKey` (base64).
    public static func sealTripKey(
        _ tripKey: SymmetricKey256, trip: TripID, epoch: Int = TripKeyEpoch.first, for invitee: String,
        publicKey: String
    ) throws -> String {
        guard let recipient = Data(base64Encoded: publicKey) else {
            throw TripSealingError(.unreadable, "\(invitee)'s public key is not base64")
        }
        return try PublicKeySeal.seal(
            tripKey.data, to: recipient, associatedData: shareContext(trip, epoch, invitee)
        ).base64EncodedString()
    }

    /// The trip key (of key epoch `epoch`) an owner sealed for `username` (this account).
    /// - Throws: ``TripSealingError`` `.unreadable` when it was not sealed for this key, trip,
    ///   epoch and name.
    public static func openTripKey(
        _ sealed: String, trip: TripID, epoch: Int = TripKeyEpoch.first, for username: String,
        with privateKey: X25519.PrivateKey
    ) throws -> SymmetricKey256 {
        guard let bytes = Data(base64Encoded: sealed),
            let opened = try? PublicKeySeal.open(
                bytes, with: privateKey, associatedData: shareContext(trip, epoch, username)),
            let key = SymmetricKey256(data: opened)
        else {
            throw TripSealingError(.unreadable, "the invitation's trip key was not sealed for this account's key")
        }
        return key
    }

    private var privateKeyContext: Data { Data("quire-sharing-key-v1|\(account.rawValue)".utf8) }

    /// `quire-trip-share-v1|<trip>|<username>` for the first key, as before keys rotated;
    /// `quire-trip-rekey-v1|<trip>|<epoch>|<username>` for a later one.
    private static func shareContext(_ trip: TripID, _ epoch: Int, _ username: String) -> Data {
        guard epoch != TripKeyEpoch.first else {
            return Data("quire-trip-share-v1|\(trip)|\(username.lowercased())".utf8)
        }
        return Data("quire-trip-rekey-v1|\(trip)|\(epoch)|\(username.lowercased())".utf8)
    }
}
