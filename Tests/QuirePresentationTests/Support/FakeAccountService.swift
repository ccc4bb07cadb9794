import Foundation
import QuireDomain

@testable import QuirePresentation

/// An `AccountService` that records what it is asked and answers as told.
///
/// `@unchecked Sendable`: every stored property is read and written only while holding `lock`.
final class FakeAccountService: AccountService, @unchecked Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "wrong username or password" }
    }

    private let lock = NSLock()
    private var calls: [String] = []
    private var failing = false
    private var serverNote: String?
    private var current = SyncStatus()

    var recorded: [String] { lock.withLock { calls } }

    func fail() { lock.withLock { failing = true } }
    func serverNotTold(_ note: String) { lock.withLock { serverNote = note } }
    func status(_ status: SyncStatus) { lock.withLock { current = status } }

    func syncStatus() async -> SyncStatus {
        lock.withLock { current }
    }

    func signIn(server: URL, username: String, password: String) async throws -> SignedInAccount {
        try lock.withLock {
            calls.append("signIn \(server.absoluteString) \(username) \(password)")
            if failing { throw Refused() }
        }
        return SignedInAccount(username: username, server: server.absoluteString)
    }

    func register(server: URL, username: String, password: String) async throws -> RegisteredAccount {
        try lock.withLock {
            calls.append("register \(server.absoluteString) \(username) \(password)")
            if failing { throw Refused() }
        }
        return RegisteredAccount(
            account: SignedInAccount(username: username, server: server.absoluteString),
            recoveryKey: "ABCD-EFGH")
    }

    func signOut() async -> String? {
        lock.withLock {
            calls.append("signOut")
            return serverNote
        }
    }
}
