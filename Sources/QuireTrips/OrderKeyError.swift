/// Why an order key could not be read or made.
///
/// Errors compare equal by kind, so a test or a caller can match `OrderKeyError.malformedKey`
/// whatever the message says; `description` names the offending key.
public struct OrderKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable { case malformedKey, notAscending, unknownAnchor }
    private let kind: Kind
    public let description: String

    private init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A key that is not one this format makes (for example one from another device's bug).
    public static let malformedKey = OrderKeyError(.malformedKey, "malformed order key")
    /// `between(a, b)` with `a` not sorting strictly before `b`.
    public static let notAscending = OrderKeyError(.notAscending, "order keys not ascending")
    /// A placement relative to an item that is not among the given items (or is the item moved).
    public static let unknownAnchor = OrderKeyError(.unknownAnchor, "no such item to place against")

    static func malformed(_ key: String, _ why: String) -> OrderKeyError {
        OrderKeyError(.malformedKey, "malformed order key \(quoted(key)): \(why)")
    }

    static func notAscending(_ a: String, _ b: String) -> OrderKeyError {
        OrderKeyError(.notAscending, "order key \(quoted(a)) does not sort before \(quoted(b))")
    }

    static func unknownAnchor(_ id: String) -> OrderKeyError {
        OrderKeyError(.unknownAnchor, "no item \(quoted(id)) to place against")
    }

    public static func == (a: OrderKeyError, b: OrderKeyError) -> Bool { a.kind == b.kind }

    private static func quoted(_ key: String) -> String {
        let shown = key.count > 40 ? String(key.prefix(40)) + "…" : key
        return "\"\(shown)\""
    }
}
