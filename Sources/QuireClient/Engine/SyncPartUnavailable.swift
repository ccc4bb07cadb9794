import Foundation

/// The server has no feed for this part (a server that keeps no trips): the long-poll stops.
public struct SyncPartUnavailable: Error, Hashable, Sendable {
    public init() {}
}
