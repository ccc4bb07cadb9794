import Foundation
import QuireClient
import QuireTestSupport

/// Every account the crash tests need, made in one place: a real registration (the password
/// derives the keys on this side; the server sees an auth key and a wrapped notes key).
struct CrashAccount: Sendable {
    let username: String
    let password: String
    /// The test's own signed-in session: a writer beside the devices, with the notes key.
    let session: AccountSession
    /// A second session, for reading the server's feed: the feed spares a session its own writes,
    /// so a checker must not be the writer.
    let readerToken: String

    var token: String { session.accessToken ?? "" }

    /// Seals payloads the account's devices can open.
    func codec() throws -> SealedPayloadCodec {
        SealedPayloadCodec(notesKey: try session.notesKeyValue(), account: session.account)
    }

    /// Signs a `quire` device in to this account.
    func signIn(_ device: CrashDevice, server: ServerProcess) async throws {
        let outcome = try await device.run(
            ["login", server.url.absoluteString, username, "--password-stdin"], killAfter: nil,
            stdin: password + "\n")
        guard outcome.succeeded else {
            throw CrashDeviceFailure(command: "login", result: outcome.result)
        }
    }
}

enum CrashAccounts {
    /// Registers a fresh account on the running `server`.
    static func make(server: ServerProcess) async throws -> CrashAccount {
        let username = "crash-\(UUID().uuidString.prefix(8).lowercased())"
        let password = "crash password \(UUID().uuidString.prefix(6))"
        let session = try await AccountFlows.register(
            serverURL: server.url, username: username, password: password, deviceName: "crash writer",
            transport: URLSessionTransport(baseURL: server.url)
        ).session
        let reader = try await AccountFlows.login(
            serverURL: server.url, username: username, password: password, deviceName: "crash reader",
            transport: URLSessionTransport(baseURL: server.url))
        return CrashAccount(
            username: username, password: password, session: session,
            readerToken: reader.accessToken ?? "")
    }
}
