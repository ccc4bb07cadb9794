import Foundation

/// What an engine does about a failed send of one change (a note's, or a request of trip ops).
enum SendDisposition: Equatable {
    /// The server will never take it: keep it with its reason.
    case refuse
    /// It may pass (a 5xx, a timeout, a broken connection): count the attempt against this
    /// change and go on with the others.
    case retryLater
    /// Nothing can be sent now (offline, signed out, throttled): end the run.
    case stopRun

    init(_ error: NotesAPIError) {
        switch error.kind {
        // The trip's key rotated and this device could not catch up this run: the change waits.
        case .refused where error.code == "trip_key_rotated": self = .retryLater
        case .refused: self = .refuse
        case .transient where error.status == 429: self = .stopRun
        case .transient, .invalidResponse: self = .retryLater
        case .unreachable, .unauthorized, .cursorExpired: self = .stopRun
        }
    }
}
