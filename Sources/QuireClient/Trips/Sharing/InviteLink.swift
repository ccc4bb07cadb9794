import Foundation
import QuireCrypto
import QuireTrips

/// An invite link (issue 15): `https://SERVER/join/LINK-ID#SECRET`. The secret after `#` never
/// reaches the server (no client sends a URL's fragment); two keys are derived from it with
/// HKDF-SHA256: the key that seals the trip key for the link (associated data
/// `quire-trip-link-v1|<trip>`), and the join token whose SHA-256 the server keeps, so holding
/// the link's id alone (as the server does) does not let anyone join.
public struct InviteLink: Sendable, Equatable {
    public var server: URL
    public var id: String
    public var secret: Data

    static let secretByteCount = 32

    /// A new link to `id` on `server`, with a fresh secret.
    init(server: URL, id: String) {
        self.server = server
        self.id = id
        self.secret = SecureRandom.bytes(Self.secretByteCount)
    }

    /// Parses what ``text`` printed; nil for anything else, such as a link without an http or
    /// https server with a host, or without an id (the payload fuzz target found "////join/#…"
    /// taken as a link to the server "///").
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let hash = trimmed.firstIndex(of: "#"), let join = trimmed.range(of: "/join/"),
            join.upperBound < hash,
            let secret = Data(base64URLEncoded: String(trimmed[trimmed.index(after: hash)...])),
            secret.count == Self.secretByteCount,
            let server = URL(string: String(trimmed[..<join.lowerBound])),
            ["http", "https"].contains(server.scheme?.lowercased() ?? ""), server.host?.isEmpty == false
        else { return nil }
        self.server = server
        self.id = String(trimmed[join.upperBound..<hash]).lowercased()
        self.secret = secret
    }

    /// The link to share.
    public var text: String {
        var base = server.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return "\(base)/join/\(id)#\(secret.base64URLEncodedString())"
    }

    /// The token a joiner shows the server.
    func token() throws -> Data { try derived("quire-link-token-v1") }

    /// What the server keeps of the token.
    func tokenHash() throws -> String { SHA256Digest.hex(try token()) }

    func seal(_ tripKey: SymmetricKey256, trip: TripID) throws -> String {
        try AESGCM.seal(tripKey.data, key: try sealingKey(), associatedData: context(trip)).base64EncodedString()
    }

    /// - Throws: ``TripSealingError`` `.unreadable` when the key was not sealed with this link.
    func open(_ sealed: String, trip: TripID) throws -> SymmetricKey256 {
        guard let combined = Data(base64Encoded: sealed),
            let opened = try? AESGCM.open(combined, key: try sealingKey(), associatedData: context(trip)),
            let key = SymmetricKey256(data: opened)
        else {
            throw TripSealingError(
                .unreadable, "the link's trip key does not open with its secret; copy the whole link")
        }
        return key
    }

    private func sealingKey() throws -> SymmetricKey256 {
        guard let key = SymmetricKey256(data: try derived("quire-link-key-v1")) else {
            throw CryptoError.invalidKeyLength
        }
        return key
    }

    private func derived(_ info: String) throws -> Data {
        try QuireCrypto.HKDF.sha256(inputKeyMaterial: secret, salt: Data(), info: Data(info.utf8), length: 32)
    }

    private func context(_ trip: TripID) -> Data { Data("quire-trip-link-v1|\(trip)".utf8) }
}
