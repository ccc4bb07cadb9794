import Foundation

/// AES-256-GCM under one key with a synthetic nonce: the first 12 bytes of an HMAC-SHA256, under
/// a key of its own, of the associated data, a zero byte and the plaintext (as in SIV). One input
/// always gives one output, and two inputs share a nonce only by a 96-bit collision. The server
/// seals every feed cursor this way (`CursorSeal`): on every write's answer and every feed page.
///
/// The same bytes as `HMAC.sha256` and `AESGCM.seal(_:key:nonce:associatedData:)` give (the tests
/// hold the two together). On Linux the keyed HMAC and AES-GCM states are made once and copied
/// for each seal (`OpenSSLBackend.KeyedSealer`), so a seal neither looks its algorithms up by name
/// nor expands its keys again; elsewhere each seal is the two one-shot calls.
package final class SyntheticNonceSealer: Sendable {
    #if canImport(CryptoKit)
        private let key: SymmetricKey256
        private let nonceKey: Data
    #else
        private let keyed: OpenSSLBackend.KeyedSealer
    #endif

    package init(key: SymmetricKey256, nonceKey: Data) {
        #if canImport(CryptoKit)
            self.key = key
            self.nonceKey = nonceKey
        #else
            self.keyed = OpenSSLBackend.KeyedSealer(key: key, nonceKey: nonceKey)
        #endif
    }

    /// `prefix` ‖ nonce ‖ ciphertext ‖ tag of `plaintext` sealed with `associatedData`.
    ///
    /// Traps only when the platform library fails to allocate or is broken, as `HMAC.sha256` does:
    /// a cursor is a few dozen bytes, and a server whose libcrypto fails can answer nothing safely.
    package func seal(_ plaintext: Data, associatedData: Data, prefix: UInt8) -> [UInt8] {
        #if canImport(CryptoKit)
            let nonce = HMAC.sha256(key: nonceKey, data: associatedData + Data([0]) + plaintext)
                .prefix(AESGCM.nonceByteCount)
            let sealed = try! AESGCM.seal(plaintext, key: key, nonce: Data(nonce), associatedData: associatedData)
            return [prefix] + [UInt8](sealed)
        #else
            return keyed.seal(plaintext, associatedData: associatedData, prefix: prefix)
        #endif
    }
}
