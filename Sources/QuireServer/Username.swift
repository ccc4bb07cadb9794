/// An account's username in its one stored form: 1 to 64 of `a-z 0-9 . _ -`, lowercased.
///
/// Usernames are case-insensitive: `Ada` and `ada` are the same account. Only ASCII input is
/// accepted before lowercasing, so no other script's letter folds into an ASCII name.
struct Username: Hashable, Sendable, CustomStringConvertible {
    let value: String

    private static let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")

    /// Nil unless `raw`, lowercased, is 1 to 64 allowed characters.
    init?(_ raw: String) {
        guard raw.allSatisfy(\.isASCII) else { return nil }
        let lowered = raw.lowercased()
        guard (1...64).contains(lowered.count), lowered.allSatisfy(Self.allowed.contains) else {
            return nil
        }
        value = lowered
    }

    var description: String { value }
}
