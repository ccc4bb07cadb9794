/// The refusals of the accounts and sessions routes.
extension APIError {
    static let invalidUsername = APIError(
        status: 400, code: "invalid_username",
        message: "'username' must be 1 to 64 characters: letters a-z, digits, '.', '_' or '-' "
            + "(letter case is ignored).")

    static let usernameTaken = APIError(
        status: 409, code: "username_taken",
        message: "That username is taken; choose another one, or sign in if it is yours.")

    /// The same answer for an unknown username and a wrong key, so neither is revealed.
    static let invalidCredentials = APIError(
        status: 401, code: "invalid_credentials", message: "wrong username or password")

    static func tooManyAttempts(retryAfter seconds: Int) -> APIError {
        .slowDown(
            "too_many_attempts", "Too many failed sign-ins; try again in \(seconds) seconds.",
            retryAfter: seconds)
    }

    /// A 429 with `Retry-After`.
    private static func slowDown(_ code: String, _ message: String, retryAfter seconds: Int) -> APIError {
        var error = APIError(status: 429, code: code, message: message)
        error.retryAfter = seconds
        return error
    }

    static func tooManyRegistrations(retryAfter seconds: Int) -> APIError {
        .slowDown(
            "too_many_registrations",
            "Too many accounts were registered from this address; try again in \(seconds) seconds.",
            retryAfter: seconds)
    }

    static let tokenExpired = APIError(
        status: 401, code: "token_expired",
        message: "The access token has expired; refresh the session "
            + "(POST /v1/sessions/refresh) and retry.")

    static let invalidRefreshToken = APIError(
        status: 401, code: "invalid_refresh_token",
        message: "The refresh token is not valid (unknown, already used, or signed out); "
            + "sign in again.")
}
