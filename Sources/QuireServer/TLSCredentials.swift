import CGnuTLS
import Foundation

/// The certificate chain and private key the server presents when it serves HTTPS
/// (`quire-server --tls-cert FILE --tls-key FILE`), checked before the daemon starts.
///
/// Both are PEM. The certificate file holds the server's certificate first, then any
/// intermediates (a `fullchain.pem`); the key must not be encrypted with a passphrase. The check
/// loads the pair with GnuTLS exactly as libmicrohttpd will, so a file that passes is one the
/// daemon accepts, and one that does not is explained in one line.
public struct TLSCredentials: Sendable {
    public let certificatePEM: String
    public let keyPEM: String

    /// Checks the pair. Throws ``TLSCredentialsError/invalid(_:)`` when the certificate or the key
    /// is not PEM, the key is encrypted, or the key is not the certificate's.
    public init(certificatePEM: String, keyPEM: String) throws(TLSCredentialsError) {
        try self.init(certificatePEM, keyPEM, certificateName: "the certificate", keyName: "the key")
    }

    /// Reads and checks `certificateFile` and `keyFile`. Throws ``TLSCredentialsError/unreadable(_:)``
    /// when a file cannot be read, and ``TLSCredentialsError/invalid(_:)`` as
    /// ``init(certificatePEM:keyPEM:)`` does; each message names the flag and the file.
    public static func load(certificateFile: String, keyFile: String) throws(TLSCredentialsError) -> TLSCredentials {
        let certificateName = "--tls-cert \(certificateFile)"
        let keyName = "--tls-key \(keyFile)"
        return try TLSCredentials(
            try read(certificateFile, name: certificateName), try read(keyFile, name: keyName),
            certificateName: certificateName, keyName: keyName)
    }

    private init(
        _ certificatePEM: String, _ keyPEM: String, certificateName: String, keyName: String
    ) throws(TLSCredentialsError) {
        guard certificatePEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw .invalid("\(certificateName) holds no PEM certificate (a '-----BEGIN CERTIFICATE-----' block)")
        }
        guard keyPEM.contains("PRIVATE KEY-----") else {
            throw .invalid("\(keyName) holds no PEM private key (a '-----BEGIN PRIVATE KEY-----' block)")
        }
        if keyPEM.contains("ENCRYPTED") {
            throw .invalid(
                "\(keyName) is encrypted with a passphrase; give the server the key unencrypted "
                    + "(openssl pkey -in KEY -out plain.pem), readable only by its user")
        }
        let code = certificatePEM.withCString { cert in
            keyPEM.withCString { key in quire_tls_check_pair(cert, strlen(cert), key, strlen(key)) }
        }
        guard code == 0 else {
            let reason = String(cString: gnutls_strerror(code)).trimmingCharacters(in: CharacterSet(charactersIn: "."))
            throw .invalid(
                "\(keyName) and \(certificateName) cannot be used together (\(reason)); check that the key "
                    + "is the certificate's own and both are PEM")
        }
        self.certificatePEM = certificatePEM
        self.keyPEM = keyPEM
    }

    private static func read(_ path: String, name: String) throws(TLSCredentialsError) -> String {
        guard access(path, R_OK) == 0 else {
            throw .unreadable("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable("cannot read \(name): not a readable file")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Why `--tls-cert` / `--tls-key` cannot be used: one line for the operator, naming the flag and
/// the file. `quire-server` exits 66 for an unreadable file and 64 for one it cannot use.
public enum TLSCredentialsError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or may not be read.
    case unreadable(String)
    /// The file was read but is not a usable certificate or key.
    case invalid(String)

    public var description: String {
        switch self {
        case .unreadable(let message), .invalid(let message): message
        }
    }
}
