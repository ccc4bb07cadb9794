import Foundation
import QuireClient
import QuireCrypto

// MARK: - recover, recovery-key

extension QuireCommandLine {
    /// Sets a new password with the recovery key and signs this device in; every other device is
    /// signed out. A mistyped key is caught by its checksum before anything is sent.
    func recover(_ arguments: Arguments) async throws {
        let positionals = try arguments.expectPositionals(["url", "username"])
        let (serverURL, trust) = try Self.server(positionals[0], arguments)
        let username = positionals[1]
        let device = try openDevice()
        let name = await deviceName(arguments, of: device)
        try await device.checkCanSignIn(as: username, on: serverURL)
        let reader = PasswordReader(fromStandardInput: arguments.flag("password-stdin"))
        let text = try reader.read("Recovery key for \(username): ", what: "recovery key")
        let recoveryKey: RecoveryKey
        do {
            recoveryKey = try RecoveryKey(parsing: text)
        } catch {
            throw CLIError(code: .dataError, message: "\(error.message) Nothing was sent to the server.", hint: "")
        }
        let password = try reader.readNew("New password for \(username): ", username: username)
        let session = try await talking(to: serverURL, trust: trust) {
            try await AccountFlows.recover(
                serverURL: serverURL, username: username, recoveryKey: recoveryKey, newPassword: password,
                deviceName: name, transport: LiveTransport.make(baseURL: serverURL, trust: trust),
                trust: trust)
        }
        try await device.signIn(session)
        try await device.database.setDeviceName(name)
        console.out(
            "New password set for \(session.username) on \(serverURL.absoluteString); this device is signed in. "
                + "Every other device was signed out: sign them in with the new password. "
                + "The recovery key still works; keep it safe.")
    }

    /// Makes a new recovery key for the signed-in account and shows it once; the old one stops
    /// working. Needs the current password.
    func recoveryKey(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        guard let session = try device.credentials.load(), session.isSignedIn else {
            throw CLIError(code: .noPermission, message: "not signed in; run: quire login URL USER")
        }
        let current = try PasswordReader(fromStandardInput: arguments.flag("password-stdin"))
            .read("Password for \(session.username): ")
        let made = try await talking(to: session.serverURL, trust: session.trust) {
            try await AccountFlows.replaceRecoveryKey(
                session: session, currentPassword: current,
                transport: LiveTransport.make(baseURL: session.serverURL, trust: session.trust))
        }
        try device.credentials.save(made.session)
        console.out("A new recovery key was made for \(session.username); the one before it no longer works.")
        showRecoveryKey(
            made.recoveryKey, using: "quire recover \(session.serverURL.absoluteString) \(session.username)")
    }

    /// Prints `key` once, with what it is for and the plain warning that a forgotten password
    /// without it means the notes cannot be read.
    func showRecoveryKey(_ key: RecoveryKey, using command: String) {
        console.out(
            """

            Your recovery key (shown only this once):

                \(key.groupedText)

            Write it down, or keep it in a password manager, away from this device. Your notes are
            encrypted with your password: if you forget it, this key is the only way back to them.
            Without the password or this key, no one can read your notes, not even the server.
            If you forget your password: \(command)
            """)
    }
}
