import Foundation
import QuireDomain
import Testing

@testable import QuirePresentation

/// Seed 000: signing out with changes that never reached the server warns first ("3 notes
/// haven't synced and will be lost"), since signing out erases this device's data.
struct SignOutWarningTests {
    @Test(
        arguments: [
            (SyncStatus(), nil),
            (SyncStatus(pendingCount: 3), "3 changes haven't synced and will be lost."),
            (SyncStatus(pendingCount: 1), "1 change hasn't synced and will be lost."),
            // Refused changes are only on this device too: the server never took them.
            (SyncStatus(pendingCount: 1, refusedCount: 1), "2 changes haven't synced and will be lost."),
            (SyncStatus(tripRejectedCount: 2), "2 changes haven't synced and will be lost."),
        ] as [(SyncStatus, String?)])
    func warnsOnlyWhenSomethingIsOnlyOnThisDevice(status: SyncStatus, warning: String?) {
        #expect(SignOutWarning.text(for: status) == warning)
    }

    @Test func conflictCopiesStillToSendCountAsUnsynced() {
        // A conflict copy is an ordinary pending note until the server has it.
        let status = SyncStatus(pendingCount: 1, conflictCount: 1)
        #expect(SignOutWarning.text(for: status) == "1 change hasn't synced and will be lost.")
    }
}
