import Foundation

/// Waits until `condition` holds, checking again and again, for at most `timeout` seconds.
/// Returns whether it held. Tests use it instead of sleeping a fixed time.
public func eventually(
    timeout: TimeInterval = 60, _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try await condition() { return true }
        if Date() > deadline { return false }
        await Task.yield()
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
}
