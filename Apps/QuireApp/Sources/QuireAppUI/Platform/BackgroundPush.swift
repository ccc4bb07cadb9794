import Foundation

#if os(iOS)
    import UIKit
#endif

/// A little time to finish a push as the app leaves the foreground
/// (`beginBackgroundTask(withName:expirationHandler:)`, seed 000). The work is not cut short when
/// the time runs out: what it had not sent stays queued in the database and goes next time. On
/// macOS an app keeps running in the background, so the work simply runs.
@MainActor
enum BackgroundPush {
    /// Runs `work`, with background time on iOS, ending the background task when it returns or the
    /// system's time runs out, whichever is first. Each call has its own background task.
    static func run(_ work: @escaping @MainActor () async -> Void) {
        #if os(iOS)
            let time = BackgroundTime()
            time.identifier = UIApplication.shared.beginBackgroundTask(withName: "Quire: finish syncing") {
                // The system calls this on the main thread.
                MainActor.assumeIsolated { time.end() }
            }
            Task { @MainActor in
                await work()
                time.end()
            }
        #else
            Task { @MainActor in await work() }
        #endif
    }
}

#if os(iOS)
    /// One background task's identifier, ended once.
    @MainActor
    private final class BackgroundTime {
        var identifier: UIBackgroundTaskIdentifier = .invalid

        func end() {
            guard identifier != .invalid else { return }
            UIApplication.shared.endBackgroundTask(identifier)
            identifier = .invalid
        }
    }
#endif
