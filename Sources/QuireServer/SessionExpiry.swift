import Foundation

/// The sessions that have ended at some time: those last used before ``lastUsedBefore`` or
/// started before ``startedBefore``.
public struct SessionExpiry: Sendable, Equatable {
    public var lastUsedBefore: Date
    public var startedBefore: Date

    public init(lastUsedBefore: Date, startedBefore: Date) {
        self.lastUsedBefore = lastUsedBefore
        self.startedBefore = startedBefore
    }

    /// No session has ended: for callers that decide nothing by age.
    public static let never = SessionExpiry(lastUsedBefore: .distantPast, startedBefore: .distantPast)

    /// Whether a session started at `startedAt` and last used at `lastUsedAt` has ended.
    public func hasEnded(startedAt: Date, lastUsedAt: Date) -> Bool {
        lastUsedAt < lastUsedBefore || startedAt < startedBefore
    }
}
