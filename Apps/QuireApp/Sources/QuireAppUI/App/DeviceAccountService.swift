import Foundation
import QuireClient
import QuireDomain
import QuirePresentation

/// The account screen's requests, over the client's account flows and the opened device: the same
/// steps as `quire login`, `quire register` and `quire logout`.
struct DeviceAccountService: AccountService {
    let app: AppModel
    let deviceName: String

    func signIn(server: URL, username: String, password: String) async throws -> SignedInAccount {
        let session = try await startSession(as: username, on: server) { transport in
            try await AccountFlows.login(
                serverURL: server, username: username, password: password, deviceName: deviceName,
                transport: transport)
        }
        return SignedInAccount(session)
    }

    func register(server: URL, username: String, password: String) async throws -> RegisteredAccount {
        var recoveryKey = ""
        let session = try await startSession(as: username, on: server) { transport in
            let registration = try await AccountFlows.register(
                serverURL: server, username: username, password: password, deviceName: deviceName,
                transport: transport)
            recoveryKey = registration.recoveryKey.groupedText
            return registration.session
        }
        return RegisteredAccount(account: SignedInAccount(session), recoveryKey: recoveryKey)
    }

    func syncStatus() async -> SyncStatus {
        await app.currentStatus()
    }

    func signOut() async -> String? {
        await app.stopSync()
        var notes: [String] = []
        do {
            let device = try await app.openedDevice()
            do {
                if let session = try device.credentials.load(),
                    case .notConfirmed(let error) = await AccountFlows.logout(
                        session: session,
                        transport: LiveTransport.make(baseURL: session.serverURL, trust: session.trust))
                {
                    notes.append("The server was not told (\(error)); its session ends when its tokens expire.")
                }
            } catch {
                notes.append("The stored session could not be read, so the server was not told: \(error).")
            }
            try device.eraseLocalData()
        } catch {
            notes.append("Couldn't erase everything: \(error).")
        }
        await app.erased()
        return notes.isEmpty ? nil : notes.joined(separator: " ")
    }

    /// Checks this device may hold `username`'s notes (before any password is derived or sent),
    /// runs `flow` against `server`, then binds the device to the account, stores the session (in
    /// the Keychain) and starts syncing.
    private func startSession(
        as username: String, on server: URL, _ flow: (HTTPTransport) async throws -> AccountSession
    ) async throws -> AccountSession {
        let device = try await app.openedDevice()
        try await device.checkCanSignIn(as: username, on: server)
        let session = try await flow(LiveTransport.make(baseURL: server))
        try await device.signIn(session)
        try await device.database.setDeviceName(deviceName)
        await app.signedIn()
        return session
    }
}
