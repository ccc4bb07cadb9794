import Foundation
import QuireWire

/// The bearer tokens of a signed-in device, for ``NotesAPIClient``: read from a ``CredentialStore``
/// and refreshed through ``AccountsAPIClient`` when they expire or the server refuses them.
///
/// Refreshing is shared: however many requests get a 401 at once, one refresh runs, and they all
/// get its token (the server's refresh tokens are single-use, so two refreshes would sign the device
/// out). A caller that was refused a token another caller has since replaced gets the new one
/// without any request.
///
/// When the server refuses the refresh token, the device is signed out: the stored session keeps
/// its server, user, account and notes key but loses its tokens, and every later call returns nil,
/// so the sync engine stops with "signed out". Notes and pending changes live in the database and are
/// not touched. When the refresh cannot reach the server, nothing is stored and the caller gets a
/// transient ``NotesAPIError``, so sync retries later.
///
/// A refresh runs in its own task: cancelling the caller that started it does not cancel it, so
/// other callers waiting on it, and the new refresh token, are not lost.
public actor SessionTokenProvider: AccessTokenProvider {
    private let store: CredentialStore
    private let accounts: AccountsAPIClient
    private let now: @Sendable () -> Date
    private let refreshMargin: TimeInterval
    private var inFlight: Task<String?, Error>?

    /// - Parameters:
    ///   - store: where the session lives; it is read on every call, so a sign-in or sign-out made
    ///     elsewhere (another provider, the CLI) is seen at once.
    ///   - refreshMargin: `accessToken()` refreshes this long before the token's expiry.
    public init(
        store: CredentialStore, accounts: AccountsAPIClient,
        now: @escaping @Sendable () -> Date = Date.init, refreshMargin: TimeInterval = 30
    ) {
        self.store = store
        self.accounts = accounts
        self.now = now
        self.refreshMargin = refreshMargin
    }

    /// The stored access token, refreshed first if it expires within `refreshMargin`; nil when
    /// signed out.
    ///
    /// If that early refresh cannot reach the server, the stored token is returned anyway: the
    /// server decides, and a 401 leads to ``refreshedToken(after:)``.
    /// - Throws: what the store throws.
    public func accessToken() async throws -> String? {
        guard let session = try store.load(), let token = session.accessToken else { return nil }
        guard let expiresAt = session.accessTokenExpiresAt, now() >= expiresAt - refreshMargin else {
            return token
        }
        do {
            return try await sharedRefresh()
        } catch let error as NotesAPIError where error.kind == .transient || error.kind == .unreachable {
            return token
        }
    }

    /// A token to retry with after the server refused `rejected`: the stored one if it has already
    /// been replaced, else the result of one (shared) refresh; nil when the device is signed out.
    /// - Throws: ``NotesAPIError`` (transient or unreachable) when the refresh got no answer, or
    ///   what the store throws.
    public func refreshedToken(after rejected: String) async throws -> String? {
        guard let session = try store.load(), let current = session.accessToken else { return nil }
        if current != rejected, inFlight == nil { return current }
        return try await sharedRefresh()
    }

    // MARK: - Refreshing

    private func sharedRefresh() async throws -> String? {
        if let inFlight { return try await inFlight.value }
        // The task runs on this actor, so it clears `inFlight` in the same step as it finishes:
        // no caller can join a refresh that has already been answered.
        let task = Task {
            defer { self.inFlight = nil }
            return try await self.performRefresh()
        }
        inFlight = task
        return try await task.value
    }

    /// Refreshes under the store's refresh lock. Another process of this device may have refreshed
    /// while this one waited for the lock: then its new token is used, and the old refresh token is
    /// not presented again (the server would take a second use as theft and revoke the session).
    private func performRefresh() async throws -> String? {
        let seen = try store.load()?.refreshToken
        let store = store
        return try await store.whileRefreshing {
            guard let session = try store.load() else { return nil }
            if let seen, session.refreshToken != seen { return session.accessToken }
            return try await self.refresh(session)
        }
    }

    private func refresh(_ session: AccountSession) async throws -> String? {
        guard let refreshToken = session.refreshToken else { return nil }
        let dto: SessionDTO
        do {
            dto = try await accounts.refresh(refreshToken: refreshToken)
        } catch let error as AccountError where error.isRetryable {
            throw NotesAPIError(
                kind: error == .unreachable ? .unreachable : .transient, status: error.status,
                code: error.code, message: "Refreshing the session failed: \(error.message)",
                retryAfter: error.retryAfter)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as AccountError where error == .invalidResponse {
            throw NotesAPIError(kind: .invalidResponse, status: error.status, message: error.message)
        } catch {
            // Refused (401 or another 4xx): the refresh token is dead, so the device is signed out.
            try store.save(session.signedOut())
            return nil
        }
        guard dto.accountId == session.accountId else {
            throw NotesAPIError(
                kind: .invalidResponse, message: "The server refreshed the session of another account.")
        }
        let refreshed = session.withTokens(of: dto, now: now())
        try store.save(refreshed)
        return refreshed.accessToken
    }
}
