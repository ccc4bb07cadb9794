import Foundation
import QuireDomain

/// The account as the account screen shows it.
public struct SignedInAccount: Equatable, Sendable {
    public let username: String
    /// The server's address, as people read it ("https://notes.example.com").
    public let server: String

    public init(username: String, server: String) {
        self.username = username
        self.server = server
    }
}

/// A new account, and the recovery key to show once (it is never stored).
public struct RegisteredAccount: Equatable, Sendable {
    public let account: SignedInAccount
    public let recoveryKey: String

    public init(account: SignedInAccount, recoveryKey: String) {
        self.account = account
        self.recoveryKey = recoveryKey
    }
}

/// What the account screen asks of the device: sign in, create an account, sign out. The app
/// implements it over the client's account flows and the device (its credential store, its sync).
public protocol AccountService: Sendable {
    /// Signs this device in and starts syncing. Throws, for people, when it cannot.
    func signIn(server: URL, username: String, password: String) async throws -> SignedInAccount

    /// Creates the account, signs this device in and starts syncing.
    func register(server: URL, username: String, password: String) async throws -> RegisteredAccount

    /// The device's sync status now: what signing out would lose.
    func syncStatus() async -> SyncStatus

    /// Stops syncing, tells the server, and erases this device's notes and trips and its session.
    /// Never fails on this device; returns a sentence for people when the server could not be told.
    func signOut() async -> String?
}
