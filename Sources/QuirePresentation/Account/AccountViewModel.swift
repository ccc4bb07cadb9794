import Foundation
import Observation
import QuireDomain

/// The account screen's brain: the sign-in and registration form, and signing out with the
/// warning of seed 000 when changes have not synced.
///
/// The password is held only until the request that uses it succeeds. Requests run one at a
/// time (`isWorking`); the screen's buttons wait on them. Uses nothing newer than iOS 17 / macOS 14.
@MainActor
@Observable
public final class AccountViewModel {
    public var mode: AccountFormMode = .signIn
    public var server = ""
    public var username = ""
    public var password = ""

    /// The signed-in account; nil when signed out.
    public private(set) var account: SignedInAccount?
    /// A request is running.
    public private(set) var isWorking = false
    /// Why the last request failed, for people.
    public private(set) var problem: String?
    /// The new account's recovery key, shown once after registering.
    public private(set) var recoveryKey: String?
    /// Set when signing out would lose changes: the screen asks to confirm.
    public private(set) var signOutWarning: String?
    /// What signing out did.
    public private(set) var notice: String?

    let service: any AccountService

    public init(service: any AccountService, account: SignedInAccount?) {
        self.service = service
        self.account = account
    }

    /// Every field is filled and nothing is running.
    public var canSubmit: Bool {
        !isWorking && !server.trimmingCharacters(in: .whitespaces).isEmpty
            && !username.trimmingCharacters(in: .whitespaces).isEmpty && !password.isEmpty
    }

    public var submitTitle: String { mode.title }

    /// Signs in or registers with the form's fields. An address that is not HTTPS is refused
    /// before anything is sent. On success the password is forgotten.
    public func submit() async {
        guard canSubmit else { return }
        let url: URL
        switch ServerAddress.parse(server) {
        case .success(let parsed): url = parsed
        case .failure(let problem):
            self.problem = problem.message
            return
        }
        let username = username.trimmingCharacters(in: .whitespaces)
        let mode = mode
        isWorking = true
        defer { isWorking = false }
        do {
            switch mode {
            case .signIn:
                account = try await service.signIn(server: url, username: username, password: password)
            case .register:
                let registered = try await service.register(server: url, username: username, password: password)
                account = registered.account
                recoveryKey = registered.recoveryKey
            }
            password = ""
            problem = nil
            notice = nil
        } catch {
            problem = (mode == .signIn ? "Couldn't sign in: " : "Couldn't create the account: ") + "\(error)"
        }
    }

    /// Signs out at once when the server holds everything; otherwise sets `signOutWarning` and
    /// waits for ``confirmSignOut()`` or ``cancelSignOut()``. Reads the status when asked, so the
    /// warning counts what is unsynced now.
    public func requestSignOut() async {
        guard account != nil, !isWorking else { return }
        if let warning = SignOutWarning.text(for: await service.syncStatus()) {
            signOutWarning = warning
            return
        }
        await signOut()
    }

    /// Signs out after the warning, losing what has not synced. (A confirmation dialog may have
    /// cleared the warning on closing before this runs, so it is not required here.)
    public func confirmSignOut() async {
        signOutWarning = nil
        guard account != nil, !isWorking else { return }
        await signOut()
    }

    public func cancelSignOut() {
        signOutWarning = nil
    }

    /// The recovery key was shown; it is not kept.
    public func dismissRecoveryKey() {
        recoveryKey = nil
    }

    private func signOut() async {
        isWorking = true
        defer { isWorking = false }
        let serverNote = await service.signOut()
        account = nil
        problem = nil
        notice =
            "Signed out. This device's notes were erased; the account keeps every synced note."
            + (serverNote.map { " " + $0 } ?? "")
    }
}
