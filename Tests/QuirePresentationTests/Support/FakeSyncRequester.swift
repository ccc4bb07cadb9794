import Foundation

@testable import QuirePresentation

/// A `SyncRequesting` that counts the requests it gets.
///
/// `@unchecked Sendable`: `count` is read and written only while holding `lock`.
final class FakeSyncRequester: SyncRequesting, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var requests: Int { lock.withLock { count } }

    func requestSync() async {
        lock.withLock { count += 1 }
    }
}
