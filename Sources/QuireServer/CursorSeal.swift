import Foundation
import QuireCrypto

/// Seals feed cursors so a client can neither read nor edit them: AES-256-GCM under a key
/// derived from the server secret every instance on one database shares (``ServerStorage/serverSecret()``),
/// with associated data naming the feed and the account (``CursorScope``).
///
/// Plain cursors told a user the server-wide write sequence, so how many writes every account
/// made and when; a sealed one shows only its length, which depends on its kind, never on the
/// numbers (they are written in fixed width). A cursor issued to another account or for another
/// feed does not open, so it is refused as any bad cursor is.
///
/// Sealing is deterministic: the nonce is an HMAC of the body and its associated data under a
/// key of its own (a synthetic nonce, as in SIV: ``SyntheticNonceSealer``), so one position always
/// gives one text. An idempotent replay must be the first answer byte for byte, and a batch seals
/// a position shared by two answers once; two different bodies get the same nonce only by a
/// 96-bit collision.
///
/// The text is base64url of `0x01 ‖ nonce ‖ ciphertext ‖ tag`. The leading version byte is
/// never the first byte of an earlier plain form (`c`, `f` or `t`), so the two are told apart
/// before any decryption.
struct CursorSeal: Sendable {
    /// The first byte of every sealed cursor.
    static let version: UInt8 = 1
    /// The longest cursor text any route reads, sealed or plain, in characters.
    static let maxTextLength = 160

    private let sealer: SyntheticNonceSealer
    private let key: SymmetricKey256
    /// The key of the MAC'd trip cursors issued before sealing (``TripChangeCursor``'s `t1`
    /// form), still read so a device holding one across the upgrade keeps syncing.
    let legacyTripKey: Data

    init(serverSecret: Data) {
        let derived = HMAC.sha256(key: serverSecret, data: Data("quire sealed cursor v1".utf8))
        // HMAC-SHA256 is always 32 bytes, exactly a key's length.
        self.key = SymmetricKey256(data: derived)!
        self.sealer = SyntheticNonceSealer(
            key: key, nonceKey: HMAC.sha256(key: serverSecret, data: Data("quire sealed cursor nonce v1".utf8)))
        self.legacyTripKey = TripChangeCursor.key(serverSecret: serverSecret)
    }

    /// The text of `body` sealed for `scope`.
    func seal(_ body: Data, scope: CursorScope) -> String {
        // Sealing fails only past 2 GiB or when libcrypto itself fails; a cursor body is a few
        // dozen bytes, and a server whose libcrypto fails cannot answer anything safely.
        Data(sealer.seal(body, associatedData: scope.associatedData, prefix: Self.version)).base64URLEncodedString()
    }

    /// The body of a cursor sealed for `scope`; nil for text that is not one (a plain form,
    /// garbage, a changed byte, or a cursor of another account, feed or deployment).
    func open(_ text: String, scope: CursorScope) -> Data? {
        guard text.count <= Self.maxTextLength, let data = Data(base64URLEncoded: text),
            data.first == Self.version
        else { return nil }
        return try? AESGCM.open(data.dropFirst(), key: key, associatedData: scope.associatedData)
    }
}

/// Which feed and whose a sealed cursor belongs to: its associated data.
enum CursorScope: Sendable, Equatable {
    /// The account's notes feed (`GET /v1/notes/changes`, and the positions write answers give).
    case notes(AccountID)
    /// The account's trips feed (`GET /v1/trips`).
    case tripsFeed(AccountID)
    /// One trip's changes feed, as read by one member.
    case trip(String, AccountID)

    var associatedData: Data {
        switch self {
        case .notes(let account): Data("quire-cursor-v1|notes|\(account.rawValue)".utf8)
        case .tripsFeed(let account): Data("quire-cursor-v1|trips|\(account.rawValue)".utf8)
        case .trip(let trip, let account): Data("quire-cursor-v1|trip|\(account.rawValue)|\(trip)".utf8)
        }
    }
}
