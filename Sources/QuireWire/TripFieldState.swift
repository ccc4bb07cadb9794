/// One field's current value on the server and the trip revision that wrote it.
public struct TripFieldState: Sendable, Equatable {
    /// Sealed value (base64), nil when cleared; for `deleted`, the plain `true` or `false`.
    public var value: String?
    /// The device's keyed hash of the plaintext; nil when `value` is (and possibly for `deleted`).
    public var valueHash: String?
    /// The trip revision at which this value was written (from 1).
    public var revision: Int
    /// For an item's `deleted` set to `true`: the item's newest revision its deleter had seen (the
    /// op's base). An edit of the item at a later revision was not seen, and its device offers
    /// it back ("This item was deleted. Restore it?").
    public var seenRevision: Int?

    public init(value: String?, valueHash: String?, revision: Int, seenRevision: Int? = nil) {
        self.value = value
        self.valueHash = valueHash
        self.revision = revision
        self.seenRevision = seenRevision
    }

    /// True when this is a `deleted` field that says the item (or trip) is deleted.
    public var isTombstone: Bool { value == "true" }
}
