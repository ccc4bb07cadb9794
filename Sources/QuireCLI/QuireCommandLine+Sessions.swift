import Foundation
import QuireClient
import QuireWire

// MARK: - sessions, sessions revoke

extension QuireCommandLine {
    /// `quire sessions [--json]` lists the account's signed-in devices; `quire sessions revoke ID`
    /// signs one of them out (ID: its id, or the start of it that names only one).
    func sessions(_ arguments: Arguments) async throws {
        let positionals = arguments.positionals
        switch positionals.first {
        case nil:
            try await listSessions(json: arguments.flag("json"))
        case "revoke":
            guard positionals.count == 2 else {
                throw CLIError.usage("sessions revoke needs one session id, as quire sessions lists it")
            }
            try await revokeSession(positionals[1])
        case let word?:
            throw CLIError.usage(
                "unknown sessions subcommand '\(word)'; use: quire sessions [--json], quire sessions revoke ID")
        }
    }

    private func listSessions(json: Bool) async throws {
        let (device, session) = try signedInSession()
        let list = try await withSessionsAPI(device, session) { session, transport in
            try await AccountFlows.sessions(session: session, transport: transport)
        }
        if json {
            try console.json(list)
            return
        }
        for entry in list {
            let used = entry.lastUsedAt.formatted(date: .abbreviated, time: .shortened)
            let since = entry.createdAt.formatted(date: .abbreviated, time: .omitted)
            console.out(
                "\(entry.id)  \(entry.deviceName)  signed in \(since), last used \(used)"
                    + (entry.current ? "  (this device)" : ""))
        }
    }

    private func revokeSession(_ prefix: String) async throws {
        let (device, session) = try signedInSession()
        let list = try await withSessionsAPI(device, session) { session, transport in
            try await AccountFlows.sessions(session: session, transport: transport)
        }
        let matches = list.filter { $0.id.hasPrefix(prefix.lowercased()) }
        guard matches.count == 1, let target = matches.first, !prefix.isEmpty else {
            throw CLIError(
                code: .dataError,
                message: matches.isEmpty
                    ? "no signed-in device has the session id \(prefix); quire sessions lists them"
                    : "\(prefix) starts \(matches.count) session ids; type more of the one to sign out",
                hint: "")
        }
        guard !target.current else {
            throw CLIError.usage("\(target.id) is this device's own session: to sign this device out, run quire logout")
        }
        _ = try await withSessionsAPI(device, session) { session, transport in
            ((), try await AccountFlows.revokeSession(id: target.id, session: session, transport: transport))
        }
        console.out(
            "Signed out \(target.deviceName) (\(target.id)): its next sync is refused, and it signs in again "
                + "with quire login.")
    }

    private func signedInSession() throws -> (QuireDevice, AccountSession) {
        let device = try openDevice()
        guard let session = try device.credentials.load(), session.isSignedIn else {
            throw CLIError(code: .noPermission, message: "not signed in; run: quire login URL USER")
        }
        return (device, session)
    }

    /// Runs `call` with the session and the live transport; keeps refreshed tokens, and when this
    /// device's own session turned out to have ended, records it signed out (so `quire status`
    /// says to sign in) and says so.
    private func withSessionsAPI<T>(
        _ device: QuireDevice, _ session: AccountSession,
        _ call: (AccountSession, HTTPTransport) async throws -> (T, AccountSession)
    ) async throws -> T {
        let transport = LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        do {
            let (value, updated) = try await talking(to: session.serverURL, trust: session.trust) {
                try await call(session, transport)
            }
            if updated != session { try device.credentials.save(updated) }
            return value
        } catch let error as CLIError where error.code == .noPermission {
            try device.credentials.save(session.signedOut())
            throw CLIError(
                code: .noPermission,
                message: "this device's session ended on the server (signed out from another device, "
                    + "or unused too long); sign in again: quire login \(session.serverURL.absoluteString) "
                    + session.username,
                hint: "")
        }
    }
}
