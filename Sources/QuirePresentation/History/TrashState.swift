import Foundation

/// Everything the trash screen shows.
public struct TrashState: Equatable, Sendable {
    public var rows: [TrashRow] = []
    /// A read is running.
    public var isLoading = false
    /// The trash has been read at least once (it is read when the screen asks, not before).
    public var hasLoaded = false
    /// What to show instead of rows once read: "The trash is empty."
    public var empty: String?
    /// Why the server's part is missing or short, above the rows.
    public var notice: String?
    /// What the last restore did.
    public var message: String?
    /// The last read or restore that failed, for people.
    public var problem: String?

    public init() {}
}
