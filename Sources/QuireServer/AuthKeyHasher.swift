import Foundation
import QuireCrypto

/// The server's slow, salted hash of each account's auth key: PBKDF2-HMAC-SHA256 with a random
/// 16-byte salt per account, so a stolen database does not let anyone sign in, and each guess
/// against it costs `iterations` rounds.
///
/// Hashing runs on Quire's own threads (`BlockingWork`, about 40 ms at 100,000 iterations), never
/// on the concurrency pool, so a burst of sign-ins cannot stall other requests; it cannot be
/// cancelled.
struct AuthKeyHasher: Sendable {
    static let saltBytes = 16
    static let hashBytes = 32

    /// Iterations for new hashes; existing hashes are checked with the count stored beside them.
    let iterations: Int

    /// A fixed account that matches no key, checked when the username is unknown so a refusal
    /// takes as long as a wrong key for a real account.
    private static let decoySalt = Data(repeating: 0x5A, count: saltBytes)

    /// A new salt and the hash of `authKey` under it. Throws `CryptoError` only if the platform
    /// library fails.
    func hash(_ authKey: Data) async throws -> (hash: Data, salt: Data) {
        let salt = SecureRandom.bytes(Self.saltBytes)
        return (try await derive(authKey, salt: salt, iterations: iterations), salt)
    }

    /// Whether `authKey` matches the stored credentials, compared in constant time. With nil
    /// credentials (no such account) the same work is done against a decoy and false returned.
    func verify(_ authKey: Data, against credentials: AccountCredentials?) async throws -> Bool {
        try await verify(
            authKey,
            stored: credentials.map { ($0.authKeyHash, $0.authSalt, $0.authIterations) })
    }

    /// Whether `recoveryAuthKey` matches the account's recovery credentials, as
    /// ``verify(_:against:)-(_,AccountCredentials?)`` does for the password: nil (no account, or
    /// no recovery key) does the same work against the decoy and returns false.
    func verify(_ recoveryAuthKey: Data, against recovery: RecoveryCredentials?) async throws -> Bool {
        try await verify(
            recoveryAuthKey,
            stored: recovery.map { ($0.authKeyHash, $0.authSalt, $0.authIterations) })
    }

    private func verify(_ key: Data, stored: (hash: Data, salt: Data, iterations: Int)?) async throws -> Bool {
        guard let stored else {
            let decoy = try await derive(key, salt: Self.decoySalt, iterations: iterations)
            _ = ConstantTime.equals(decoy, Data(count: Self.hashBytes))
            return false
        }
        let candidate = try await derive(key, salt: stored.salt, iterations: stored.iterations)
        return ConstantTime.equals(candidate, stored.hash)
    }

    private func derive(_ authKey: Data, salt: Data, iterations: Int) async throws -> Data {
        try await BlockingWork.run {
            try PBKDF2.sha256(
                password: authKey, salt: salt, iterations: iterations, keyLength: Self.hashBytes)
        }
    }
}
