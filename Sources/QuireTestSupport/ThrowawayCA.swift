import Foundation

/// A certificate authority made for one test with the `openssl` command (scripts/setup.sh installs
/// it), and a server certificate it signed for 127.0.0.1, ::1 and localhost: what a self-hosted
/// server's owner makes, valid for two days. Nothing on the machine trusts it.
public struct ThrowawayCA: Sendable {
    public let directory: URL
    /// The CA's certificate (PEM): what a device is given with `--ca-file`.
    public var certificate: URL { directory.appendingPathComponent("ca.pem") }
    /// The server's certificate (PEM), signed by the CA.
    public var serverCertificate: URL { directory.appendingPathComponent("server.pem") }
    /// The server certificate's private key (PEM, unencrypted).
    public var serverKey: URL { directory.appendingPathComponent("server-key.pem") }

    /// `quire-server`'s flags to serve HTTPS with the server certificate.
    public var serverArguments: [String] { ["--tls-cert", serverCertificate.path, "--tls-key", serverKey.path] }

    /// Makes the CA and the server certificate in `directory` (which must exist).
    public static func make(in directory: URL) async throws -> ThrowawayCA {
        let ca = ThrowawayCA(directory: directory)
        let extensions = directory.appendingPathComponent("server-ext.cnf")
        try Data(
            """
            subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.utf8
        ).write(to: extensions)
        let p256 = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await openssl(
            ["req", "-x509"] + p256 + [
                "-keyout", directory.appendingPathComponent("ca-key.pem").path, "-out", ca.certificate.path,
                "-days", "2", "-subj", "/CN=Quire throwaway test CA",
            ])
        let request = directory.appendingPathComponent("server.csr")
        try await openssl(
            ["req"] + p256 + ["-keyout", ca.serverKey.path, "-out", request.path, "-subj", "/CN=127.0.0.1"])
        try await openssl([
            "x509", "-req", "-in", request.path, "-CA", ca.certificate.path,
            "-CAkey", directory.appendingPathComponent("ca-key.pem").path, "-CAcreateserial",
            "-out", ca.serverCertificate.path, "-days", "2", "-extfile", extensions.path,
        ])
        return ca
    }

    /// Runs `openssl ARGUMENTS`; throws with its error output when it fails.
    public static func openssl(_ arguments: [String]) async throws {
        try await InstalledProgram.run("openssl", arguments)
    }

    /// The `openssl` program, found on `PATH`.
    public static func opensslExecutable() throws -> URL { try InstalledProgram.find("openssl") }
}
