import Foundation
import QuireCrypto
import QuireWire

/// What a signed-in device keeps at rest about its account: where the server is and how to trust
/// it, who it is, its tokens, the notes key, and the parameters its keys were derived with.
///
/// Kept in a ``CredentialStore`` (a 0600 file on Linux). The password, the auth key and the master
/// key are never stored. A device that was signed out by the server (its refresh token refused)
/// keeps a session without tokens (`isSignedIn` false), so `quire login` knows the server and the
/// user, and the device's notes and pending changes stay where they are: in its database.
/// `description` and reflection show no token and no key.
public struct AccountSession: Codable, Sendable, Equatable {
    public var serverURL: URL
    public var username: String
    /// The server's id for the account.
    public var accountId: String
    /// Nil once signed out.
    public var accessToken: String?
    /// Nil once signed out.
    public var refreshToken: String?
    /// When the server said the access token expires.
    public var accessTokenExpiresAt: Date?
    /// Base64 of the 32-byte notes key.
    public var notesKey: String
    /// The parameters the current password's keys are derived with (needed to change it).
    public var kdf: KDFParametersDTO
    /// How to reach ``serverURL``: the CA file given at sign-in, plain HTTP allowed or not.
    /// Sessions stored before it existed read as ``ServerTrust/system``.
    public var trust: ServerTrust

    public init(
        serverURL: URL, username: String, accountId: String, accessToken: String?, refreshToken: String?,
        accessTokenExpiresAt: Date?, notesKey: String, kdf: KDFParametersDTO, trust: ServerTrust = .system
    ) {
        self.trust = trust
        self.serverURL = serverURL
        self.username = username
        self.accountId = accountId
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.notesKey = notesKey
        self.kdf = kdf
    }

    private enum CodingKeys: String, CodingKey {
        case serverURL, username, accountId, accessToken, refreshToken, accessTokenExpiresAt, notesKey, kdf, trust
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            serverURL: try container.decode(URL.self, forKey: .serverURL),
            username: try container.decode(String.self, forKey: .username),
            accountId: try container.decode(String.self, forKey: .accountId),
            accessToken: try container.decodeIfPresent(String.self, forKey: .accessToken),
            refreshToken: try container.decodeIfPresent(String.self, forKey: .refreshToken),
            accessTokenExpiresAt: try container.decodeIfPresent(Date.self, forKey: .accessTokenExpiresAt),
            notesKey: try container.decode(String.self, forKey: .notesKey),
            kdf: try container.decode(KDFParametersDTO.self, forKey: .kdf),
            trust: try container.decodeIfPresent(ServerTrust.self, forKey: .trust) ?? .system)
    }

    /// True while the device holds tokens the server may still accept.
    public var isSignedIn: Bool { accessToken != nil && refreshToken != nil }

    /// The account as payloads are bound to it: pass this to ``SealedPayloadCodec``.
    public var account: AccountID { AccountID(accountId) }

    /// The account as the device's database is bound to it: the server plus the account id, stable
    /// across token refreshes and password changes (binding another value resets the cursor).
    public var databaseAccount: AccountID { AccountID("\(serverURL.absoluteString)#\(accountId)") }

    /// The notes key as a key.
    /// - Throws: ``AccountError/unreadableSession`` if the stored value is not 32 bytes of base64.
    public func notesKeyValue() throws -> SymmetricKey256 {
        guard let data = Data(base64Encoded: notesKey), let key = SymmetricKey256(data: data) else {
            throw AccountError.unreadableSession.with(
                message: "The stored notes key is damaged; sign in again.")
        }
        return key
    }

    /// This session with the tokens of `dto`, the access token expiring `expiresIn` after `now`.
    public func withTokens(of dto: SessionDTO, now: Date) -> AccountSession {
        var session = self
        session.accessToken = dto.accessToken
        session.refreshToken = dto.refreshToken
        session.accessTokenExpiresAt = now.addingTimeInterval(TimeInterval(dto.expiresIn))
        return session
    }

    /// This session without tokens: what a device keeps once the server has signed it out.
    public func signedOut() -> AccountSession {
        var session = self
        session.accessToken = nil
        session.refreshToken = nil
        session.accessTokenExpiresAt = nil
        return session
    }
}

extension AccountSession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "AccountSession(\(username) at \(serverURL.absoluteString), account \(accountId), "
            + (isSignedIn ? "signed in" : "signed out") + ", tokens and key redacted)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["serverURL": serverURL, "username": username, "accountId": accountId],
            displayStyle: .struct)
    }
}
