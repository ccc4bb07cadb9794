import Foundation
import QuireServer

// MARK: - Sessions and token refreshes

extension SimulationWorld {
    /// A device the server signed out is a failure, unless the rotation rules called for it:
    /// the answer to a refresh the server applied never reached the device at least as long ago as the
    /// server's retry grace, or the answers of two refreshes in a row were lost (the server
    /// allows one retry of a rotated token: a second is a replay), a held refresh may have been
    /// delivered after the device moved on, or a restore forgot the device's session. Then
    /// the device signs in again, as its user would; its notes and pending changes stay.
    func checkSession(of device: SimulationDevice, step: Int?) async throws {
        guard !device.isSignedIn else { return }
        // The promised grace, not the sabotaged server's: with none, every lost answer signs out.
        let grace = NotesServerConfiguration().refreshRetryGrace
        let excused: Bool
        if restoredSessions.contains(device.index) {
            excused = true
        } else if let disturbance = device.transport.refreshDisturbance {
            excused = clock.now().timeIntervalSince(disturbance.since) >= grace || disturbance.lostInARow >= 2
        } else {
            excused = false
        }
        guard excused else {
            let why =
                device.transport.refreshDisturbance.map {
                    "its one lost refresh answer was only \(Int(clock.now().timeIntervalSince($0.since))) s old "
                        + "(the server allows a retry for \(Int(grace)) s)"
                } ?? "no refresh answer was lost"
            throw SimulationFailure(
                kind: .signedOut, message: "d\(device.index) was signed out, but \(why)", step: step)
        }
        stats.signOuts += 1
        try device.signIn(
            again: try await server.openSessionTokens(username: device.username, deviceName: "d\(device.index)"))
        device.transport.clearRefreshDisturbance()
        restoredSessions.remove(device.index)
    }
}
