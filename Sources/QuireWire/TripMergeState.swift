/// What ``TripMergeRule/apply(_:to:)`` needs to know of a trip before a request's ops.
public struct TripMergeState: Sendable, Equatable {
    /// The current state of every field the ops name, of the `deleted` field of each item they
    /// name, and of the trip's own `deleted` field. A missing key is a field that does not exist.
    public var fields: [TripFieldKey: TripFieldState]
    /// The named items the trip has at least one field of.
    public var knownItems: Set<String>
    /// The newest revision of any field of each named item, before the ops (a missing item has
    /// none): whether anyone wrote into an item after the revision its delete had seen.
    public var itemRevisions: [String: Int]
    /// The trip's newest revision (0 for a trip with no fields yet).
    public var revision: Int
    /// The newest revision a purge of deleted items removed (0 when none did).
    public var purgedRevision: Int
    /// Whether the sender may delete (or restore) the trip itself: owners only. An editor's op
    /// on the trip's `deleted` field is rejected (``TripMergeRule/ownersOnlyReason``).
    public var mayDeleteTrip: Bool

    public init(
        fields: [TripFieldKey: TripFieldState] = [:], knownItems: Set<String> = [],
        itemRevisions: [String: Int] = [:], revision: Int = 0, purgedRevision: Int = 0, mayDeleteTrip: Bool = true
    ) {
        self.itemRevisions = itemRevisions
        self.mayDeleteTrip = mayDeleteTrip
        self.fields = fields
        self.knownItems = knownItems
        self.revision = revision
        self.purgedRevision = purgedRevision
    }
}
