import QuireClient
import QuireDomain
import QuirePresentation

/// The view models of one opened device: rebuilt when the device is opened again (after signing
/// out erased it) or its account changes (the notes screen's "no server" rules).
@MainActor
struct DeviceScreens {
    let device: QuireDevice
    let notes: NotesViewModel
    let trips: TripListViewModel
    let conflicts: any NoteConflictsRepository

    init(device: QuireDevice, signedIn: Bool, sync: any SyncRequesting) {
        self.device = device
        notes = NotesViewModel(notes: device.notes, status: device.status, sync: sync, syncConfigured: signedIn)
        trips = TripListViewModel(trips: device.trips)
        conflicts = LocalNoteConflictsRepository(database: device.database)
    }
}
