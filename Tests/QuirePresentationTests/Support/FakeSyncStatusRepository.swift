import Foundation
import QuireDomain

/// An in-memory `SyncStatusRepository`: streams replay the current status, then each `set`.
final class FakeSyncStatusRepository: SyncStatusRepository {
    private let streams: ReplayingStreams<SyncStatus>

    init(_ status: SyncStatus = SyncStatus()) {
        streams = ReplayingStreams(status)
    }

    func set(_ status: SyncStatus) {
        streams.set(status)
    }

    /// Ends every open status stream, as the database does when a read fails. Later
    /// subscriptions work again.
    func endStreams() {
        streams.endAll()
    }

    func status() -> AsyncStream<SyncStatus> {
        streams.stream()
    }
}
