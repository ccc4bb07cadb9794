/// Which of an account's feeds a change is in: a long-poll of one is not woken by the other.
public enum ChangeFeed: String, Sendable, CaseIterable {
    /// `GET /v1/notes/changes`.
    case notes
    /// `GET /v1/trips`.
    case trips
}
