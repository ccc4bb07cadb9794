import Foundation

/// Why an account operation (sign-up, sign-in, refresh, sign-out, password change) failed, by what
/// the user should do next.
///
/// A struct over a private kind, so kinds can be added without breaking callers. Two errors are
/// equal when they are the same kind, so callers match with the static members:
/// `catch let error as AccountError where error == .invalidCredentials`, or `case .throttled:` in a
/// `switch error`. The details (`status`, `code`, `retryAfter`, `message`) ride along for display.
/// No error ever carries a password, a key or a token.
public struct AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Kind: Equatable, Sendable {
        case usernameTaken
        case invalidCredentials
        case signedOut
        case throttled
        case unreachable
        case transient
        case refused
        case invalidResponse
        case keyUnwrapFailed
        case unsafeKeyDerivation
        case unreadableSession
        case anotherAccountsData
        case insecureConnection
        case untrustedCertificate
        case weakPassword
    }

    private let kind: Kind
    /// For people: what went wrong and what to do.
    public let message: String
    /// The HTTP status, when the server answered.
    public let status: Int?
    /// The server's error code (`username_taken`, …), when it sent one.
    public let code: String?
    /// For ``throttled``: the server's `Retry-After`, in seconds.
    public let retryAfter: Double?
    /// For whoever asks for more (`--verbose`): the raw network error or what could not be read,
    /// e.g. `URLError -1004`. Never part of ``message``.
    public let detail: String?

    private init(
        _ kind: Kind, _ message: String, status: Int? = nil, code: String? = nil, retryAfter: Double? = nil,
        detail: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.status = status
        self.code = code
        self.retryAfter = retryAfter
        self.detail = detail
    }

    // MARK: - Kinds

    /// 409 at sign-up: someone already has this username.
    public static let usernameTaken = AccountError(.usernameTaken, "That username is taken; choose another.")
    /// 401 at sign-in or password change: the username or password is wrong.
    public static let invalidCredentials = AccountError(
        .invalidCredentials, "The username or password is wrong.")
    /// The session's tokens are gone or no longer accepted: sign in again.
    public static let signedOut = AccountError(.signedOut, "Signed out: sign in again.")
    /// 429: too many attempts; wait `retryAfter` seconds.
    public static let throttled = AccountError(.throttled, "Too many attempts; wait and try again.")
    /// No connection to the server at all (refused, no route, no network).
    public static let unreachable = AccountError(.unreachable, "Could not reach the server.")
    /// A timeout, a dropped connection or a 5xx: try again later.
    public static let transient = AccountError(.transient, "The server did not answer; try again later.")
    /// Another 4xx: the server will not take this request as it is.
    public static let refused = AccountError(.refused, "The server refused the request.")
    /// The server's answer could not be understood.
    public static let invalidResponse = AccountError(
        .invalidResponse, "The server's answer could not be read.")
    /// The notes key did not unwrap with the master key derived from the password.
    public static let keyUnwrapFailed = AccountError(
        .keyUnwrapFailed, "Wrong password or corrupted key: the notes key could not be unwrapped.")
    /// The server asked for key-derivation parameters this client refuses (too few iterations, an
    /// unknown algorithm, a short salt): a hostile server could use them to guess the password.
    public static let unsafeKeyDerivation = AccountError(
        .unsafeKeyDerivation, "The server asked for unsafe key-derivation parameters; refusing to sign in.")
    /// The stored session could not be read back.
    public static let unreadableSession = AccountError(
        .unreadableSession, "The stored session could not be read; sign in again.")

    /// The device holds another account's notes: signing in to this one would list them as this
    /// account's and upload its unsynced ones into it.
    public static let anotherAccountsData = AccountError(
        .anotherAccountsData,
        "This device holds another account's notes. Sign out first: quire logout "
            + "(it warns about anything not yet synced), then sign in.")

    /// Plain `http://` to a server that is not on this device, without leave to
    /// (``ServerTrust/allowsInsecureHTTP``): nothing was sent.
    public static let insecureConnection = AccountError(
        .insecureConnection, "Plain http:// is refused to a server that is not on this device; use https://.")
    /// The server's certificate did not verify: not from a trusted authority (a self-hosted
    /// server's own CA must be given, ``ServerTrust/caFile``), not for this host, or out of date;
    /// or the CA file could not be loaded. Nothing was sent.
    public static let untrustedCertificate = AccountError(
        .untrustedCertificate, "The server's certificate is not trusted.")

    /// A new password too easy to guess (``PasswordStrength``): refused on the device, before
    /// anything is derived or sent. The message says what is wrong and how to fix it.
    public static let weakPassword = AccountError(
        .weakPassword, "The password is too weak; use at least 10 characters. A few unrelated words work well.")

    // MARK: - Details

    /// The same kind, with a more specific message and the server's details.
    func with(
        message: String? = nil, status: Int? = nil, code: String? = nil, retryAfter: Double? = nil,
        detail: String? = nil
    ) -> AccountError {
        AccountError(
            kind, message ?? self.message, status: status ?? self.status, code: code ?? self.code,
            retryAfter: retryAfter ?? self.retryAfter, detail: detail ?? self.detail)
    }

    /// True for failures where trying again later, unchanged, may succeed.
    public var isRetryable: Bool {
        [.throttled, .unreachable, .transient].contains(kind)
    }

    public static func == (lhs: AccountError, rhs: AccountError) -> Bool {
        lhs.kind == rhs.kind
    }

    public var description: String {
        var text = message
        if let status { text += " (HTTP \(status)" + (code.map { ", \($0)" } ?? "") + ")" }
        if let retryAfter { text += " Retry after \(Int(retryAfter.rounded(.up))) s." }
        if let detail { text += " [\(detail)]" }
        return text
    }
}
