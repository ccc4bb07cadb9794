import Foundation
import QuireCrypto

/// The server a device syncs with and its credentials, stored in the device's data directory in a
/// file only its owner can read (mode 0600).
public struct RemoteConfiguration: Codable, Hashable, Sendable {
    public var serverURL: URL
    public var token: String

    public init(serverURL: URL, token: String) {
        self.serverURL = serverURL
        self.token = token
    }

    /// The account this configuration syncs: the server plus a digest of its credential, so a
    /// database never applies one account's feed to another's notes.
    public var account: AccountID {
        let digest = SHA256Digest.hex(Data(token.utf8)).prefix(16)
        return AccountID("\(serverURL.absoluteString)#\(digest)")
    }
}
