import Foundation

/// Asks whatever runs the sync (the app's sync controller) for a run soon.
///
/// The controller wakes by itself when a save queues a new pending change. A save of a note the
/// server refused only replaces the refused change, so the count of pending changes does not grow
/// and nothing would wake it: the view model asks through this instead.
public protocol SyncRequesting: Sendable {
    /// Requests a run; returns once the request is taken, not when the run ends. Several requests
    /// before a run may make one run.
    func requestSync() async
}
