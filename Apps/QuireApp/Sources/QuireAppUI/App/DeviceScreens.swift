import QuireClient
import QuireDomain
import QuirePresentation
import QuireTrips

/// The view models of one opened device: rebuilt when the device is opened again (after signing
/// out erased it) or its account changes (the notes screen's "no server" rules).
@MainActor
struct DeviceScreens {
    let device: QuireDevice
    let notes: NotesViewModel
    let trips: TripListViewModel
    let conflicts: any NoteConflictsRepository
    let history: any NoteHistoryRepository
    /// Sharing trips: nil when signed out (or the stored key is damaged), so no members sheet.
    let members: (any TripMembersRepository)?
    /// Joining others' trips: nil when signed out.
    let invitations: (any TripInvitationsRepository)?
    /// Asks the sync controller for a run (a trip just joined arrives with it).
    let sync: any SyncRequesting
    /// Trip items' photos, prepared with ImageIO in this process.
    let photos: any TripPhotosRepository

    init(device: QuireDevice, signedIn: Bool, sync: any SyncRequesting) {
        self.device = device
        notes = NotesViewModel(notes: device.notes, status: device.status, sync: sync, syncConfigured: signedIn)
        trips = TripListViewModel(trips: device.trips)
        conflicts = LocalNoteConflictsRepository(database: device.database)
        history = DeviceNoteHistoryRepository(device: device)
        let sharing = try? device.makeTripSharing()
        members = sharing.map { DeviceTripMembersRepository(sharing: $0) }
        invitations = sharing.map { DeviceTripInvitationsRepository(sharing: $0) }
        self.sync = sync
        photos = DeviceTripPhotosRepository(device: device, preparer: ImageIOPhotoPreparer())
    }
}
