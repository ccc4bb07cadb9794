#if os(iOS)
    import BackgroundTasks
    import Foundation

    /// The app-refresh task that pulls while the app is in the background (a bonus: the system
    /// decides if and when it runs). SwiftUI runs it through the scene's
    /// `.backgroundTask(.appRefresh(_:))`; the identifier is listed under
    /// `BGTaskSchedulerPermittedIdentifiers` in the app's Info.plist (project.yml).
    enum BackgroundRefresh {
        static let identifier = "app.quire.refresh"

        /// Asks for a refresh in about `delay`. The system may run it later, or never; asking again
        /// replaces the earlier request.
        static func schedule(after delay: TimeInterval = 15 * 60) {
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            request.earliestBeginDate = Date(timeIntervalSinceNow: delay)
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                // Refused (too many requests, or background refresh switched off by the user): the
                // next launch and the foreground triggers sync anyway.
            }
        }
    }
#endif
