import Foundation
import QuireClient

// MARK: - register, login, logout, passwd

extension QuireCommandLine {
    func register(_ arguments: Arguments) async throws {
        let positionals = try arguments.expectPositionals(["url", "username"])
        let (serverURL, trust) = try Self.server(positionals[0], arguments)
        let device = try openDevice()
        let name = await deviceName(arguments, of: device)
        try await device.checkCanSignIn(as: positionals[1], on: serverURL)
        let password = try PasswordReader(fromStandardInput: arguments.flag("password-stdin"))
            .readNew("Choose a password for \(positionals[1]): ", username: positionals[1])
        let registration = try await talking(to: serverURL, trust: trust) {
            try await AccountFlows.register(
                serverURL: serverURL, username: positionals[1], password: password,
                deviceName: name, transport: LiveTransport.make(baseURL: serverURL, trust: trust),
                trust: trust)
        }
        let session = registration.session
        try await device.signIn(session)
        try await device.database.setDeviceName(name)
        await publishSharingKey(device)
        console.out("Registered \(session.username) on \(serverURL.absoluteString); this device is signed in.")
        showRecoveryKey(
            registration.recoveryKey,
            using: "quire recover \(serverURL.absoluteString) \(session.username)")
    }

    func login(_ arguments: Arguments) async throws {
        let positionals = try arguments.expectPositionals(["url", "username"])
        let (serverURL, trust) = try Self.server(positionals[0], arguments)
        let device = try openDevice()
        let name = await deviceName(arguments, of: device)
        try await device.checkCanSignIn(as: positionals[1], on: serverURL)
        let password = try PasswordReader(fromStandardInput: arguments.flag("password-stdin"))
            .read("Password for \(positionals[1]): ")
        let session = try await talking(to: serverURL, trust: trust) {
            try await AccountFlows.login(
                serverURL: serverURL, username: positionals[1], password: password,
                deviceName: name, transport: LiveTransport.make(baseURL: serverURL, trust: trust),
                trust: trust)
        }
        try await device.signIn(session)
        try await device.database.setDeviceName(name)
        await publishSharingKey(device)
        console.out("Signed in as \(session.username) on \(serverURL.absoluteString). Run 'quire sync'.")
    }

    /// Makes and publishes the account's key for sharing trips unless it has one, so others can
    /// invite it. Best effort: a failure here is retried by the next sharing command.
    private func publishSharingKey(_ device: QuireDevice) async {
        _ = try? await device.makeTripSharing()?.keyPair()
    }

    /// Signs out and erases this device's notes (seed 000: warn, stop, delete the database).
    /// Unsynced changes would be lost, so it says how many and asks first, unless `--force`.
    func logout(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        guard let session = try device.credentials.load() else {
            console.out("Not signed in.")
            return
        }
        // Before anything is asked or told to the server: erasing under another process would
        // lose what it writes next (an editor's save).
        guard DeviceUseLock.takeExclusive(device.directory) else {
            throw CLIError(
                code: .tempFail,
                message: "another quire is using this device (an open 'quire edit' or 'quire watch', or a sync); "
                    + "close it, then log out again. Still signed in; nothing was erased.")
        }
        let pending = await currentStatus(device).pendingCount
        if pending > 0, !arguments.flag("force") {
            let warning = "\(pending) change(s) haven't synced and will be lost."
            guard PasswordReader.standardInputIsTerminal else {
                throw CLIError(
                    code: .failure,
                    message: "\(warning) Run 'quire sync' first, or 'quire logout --force' to sign out anyway.")
            }
            console.err(warning + " Sign out and erase them? [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                throw CLIError(code: .failure, message: "still signed in; nothing was erased")
            }
        }
        let outcome = await AccountFlows.logout(
            session: session, transport: LiveTransport.make(baseURL: session.serverURL, trust: session.trust))
        if case .notConfirmed(let error) = outcome {
            guard arguments.flag("force") else {
                throw CLIError(
                    code: Self.exitCode(for: error),
                    message: "could not sign out on the server: \(describe(error)) Try again, or run "
                        + "'quire logout --force' to sign out on this device only.")
            }
            console.err("quire: the server was not told (\(describe(error))); its session ends when its tokens expire.")
        }
        try device.eraseLocalData()
        // An interrupted edit's file holds a note's plain text too.
        for file in TextEditor.leftovers(in: device.directory) { try? FileManager.default.removeItem(at: file) }
        console.out("Signed out; this device's notes were erased (the account keeps every synced note).")
    }

    func passwd(_ arguments: Arguments) async throws {
        _ = try arguments.expectPositionals([])
        let device = try openDevice()
        guard let session = try device.credentials.load(), session.isSignedIn else {
            throw CLIError(code: .noPermission, message: "not signed in; run: quire login URL USER")
        }
        let reader = PasswordReader(fromStandardInput: arguments.flag("password-stdin"))
        let current = try reader.read("Current password: ")
        let new = try reader.readNew("New password: ", username: session.username)
        let updated = try await talking(to: session.serverURL, trust: session.trust) {
            try await AccountFlows.changePassword(
                session: session, currentPassword: current, newPassword: new,
                transport: LiveTransport.make(baseURL: session.serverURL, trust: session.trust))
        }
        try await device.signIn(updated)
        console.out(
            "Password changed. Other devices are signed out; sign them in with the new password. "
                + "Your recovery key still works.")
    }

    // MARK: - Helpers

    static func serverURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CLIError.usage("'\(text)' is not a server URL; expected e.g. http://127.0.0.1:8080")
        }
        return url
    }

    /// The server URL of `register` or `login` and how to trust it (`--ca-file`, `--insecure-http`).
    /// Refuses, before anything is sent: plain http:// to a host that is not this machine without
    /// `--insecure-http` (64); `--ca-file` with an http:// URL (64); a CA file that cannot be read
    /// or holds no certificate (74). The CA file is kept as an absolute path.
    static func server(_ text: String, _ arguments: Arguments) throws -> (url: URL, trust: ServerTrust) {
        let url = try serverURL(text)
        var trust = ServerTrust(allowsInsecureHTTP: arguments.flag("insecure-http"))
        if case .insecureHTTP(let host) = trust.refusal(of: url) {
            throw CLIError(
                code: .usage,
                message: "refusing plain http:// to \(host), which is not this machine: use https://, or pass "
                    + "--insecure-http to send sign-in keys and tokens unencrypted", hint: "")
        }
        if let path = arguments.options["ca-file"] {
            guard url.scheme == "https" else {
                throw CLIError.usage("--ca-file is for an https:// server; \(url.absoluteString) is plain HTTP")
            }
            trust.caFile = URL(fileURLWithPath: path).standardizedFileURL.path
            do {
                try trust.checkCAFile()
            } catch {
                guard case .unreadableCAFile(let file, let reason) = error else { throw error }
                throw CLIError(
                    code: .ioError,
                    message: "cannot use --ca-file \(file): \(reason); give the server's CA certificate as PEM")
            }
        }
        return (url, trust)
    }

    /// `--device-name`, else the name this device already has (signing in again after a password
    /// change elsewhere keeps "phone" rather than becoming the host's name), else the host's name.
    func deviceName(_ arguments: Arguments, of device: QuireDevice) async -> String {
        if let given = arguments.options["device-name"] { return given }
        return (try? await device.database.deviceLabel().name) ?? ProcessInfo.processInfo.hostName
    }

    /// The exit code for an account failure, and so what the user should do next.
    static func exitCode(for error: AccountError) -> ExitCode {
        switch error {
        case .invalidCredentials, .signedOut, .keyUnwrapFailed: .noPermission
        case .unreachable: .unavailable
        case .transient, .throttled: .tempFail
        case .usernameTaken, .refused: .dataError
        case .unreadableSession: .ioError
        case .anotherAccountsData, .untrustedCertificate: .config
        case .insecureConnection: .usage
        default: .failure
        }
    }
}
