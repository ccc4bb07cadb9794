/// One field as a screen shows it: the server's value with this device's waiting change on top.
public struct TripFieldState: Sendable, Hashable {
    /// What to show: the newest waiting change's value, else the server's (nil: empty). During a
    /// conflict it is the server's value, and ``conflict`` holds this device's.
    public var value: String?
    /// The revision of the server's value (0: the server has none yet).
    public var revision: Int
    /// A change of this field waits to be sent, or is being sent.
    public var isPending: Bool
    /// The server refused this device's change for good: why. Its value stays shown until the
    /// next edit of the field replaces it.
    public var rejectedReason: String?
    /// A change of this device's the server did not take, waiting for the person's choice.
    public var conflict: TripFieldConflict?

    public init(
        value: String?, revision: Int = 0, isPending: Bool = false, rejectedReason: String? = nil,
        conflict: TripFieldConflict? = nil
    ) {
        self.value = value
        self.revision = revision
        self.isPending = isPending
        self.rejectedReason = rejectedReason
        self.conflict = conflict
    }
}
