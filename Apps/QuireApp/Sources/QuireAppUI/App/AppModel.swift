import Foundation
import Observation
import QuireClient
import QuireDomain
import QuirePresentation

#if canImport(UIKit)
    import UIKit
#endif

/// The app's composition root: opens the device in the protected data directory with its session
/// in the Keychain, builds the screens' view models, and runs the sync controller while signed in.
/// It decides nothing the screens show; that is the view models' work.
@MainActor
@Observable
final class AppModel {
    /// The opened device's screens; nil when it could not be opened (`openFailure` says why).
    private(set) var screens: DeviceScreens?
    private(set) var openFailure: String?
    /// Starting the sync failed (a damaged stored key); the notes stay usable on this device.
    private(set) var syncFailure: String?
    /// The account screen, kept across sign-in and sign-out (it shows what they did).
    @ObservationIgnored private(set) var account: AccountViewModel?

    @ObservationIgnored private var controller: SyncController?
    private let credentials: any CredentialStore = KeychainCredentialStore()

    init() {
        let session = open()
        account = AccountViewModel(
            service: DeviceAccountService(app: self, deviceName: Self.deviceName()),
            account: session.map(SignedInAccount.init))
    }

    // MARK: - The device

    /// Opens the device and its screens, and starts syncing when signed in. Returns the session.
    @discardableResult
    private func open() -> AccountSession? {
        do {
            let directory = try DataDirectory.prepare()
            let device = try QuireDevice(directory: directory, credentials: credentials)
            try DataDirectory.protectDatabaseFiles(in: directory)
            let session = try credentials.load()
            screens = DeviceScreens(device: device, signedIn: session != nil, sync: ControllerSyncRequester(app: self))
            openFailure = nil
            if session != nil { startSync(device) }
            return session
        } catch {
            screens = nil
            openFailure = "Couldn't open this device's notes: \(error)"
            return nil
        }
    }

    /// The opened device, for the account service.
    func openedDevice() throws -> QuireDevice {
        guard let device = screens?.device else {
            throw AppError(openFailure ?? "This device's notes are not open.")
        }
        return device
    }

    /// A session was stored (sign-in, registration): the screens sync from now on.
    func signedIn() {
        guard let device = screens?.device else { return }
        stopSync()
        screens = DeviceScreens(device: device, signedIn: true, sync: ControllerSyncRequester(app: self))
        startSync(device)
    }

    /// The device's data was erased (sign-out): open it again, empty.
    func erased() {
        stopSync()
        screens = nil
        open()
    }

    // MARK: - Sync

    private func startSync(_ device: QuireDevice) {
        do {
            guard let made = try device.makeController(network: PathMonitorNetworkPath()) else { return }
            controller = made.controller
            syncFailure = nil
            let controller = made.controller
            Task { await controller.start() }
        } catch {
            syncFailure = "Couldn't start syncing: \(error)"
        }
    }

    /// Stops the controller; a run in flight ends at its next step, its change still queued.
    func stopSync() {
        guard let controller else { return }
        self.controller = nil
        Task { await controller.stop() }
    }

    /// Asks for a run now, cutting a backoff short (pull to refresh, a refused note saved again).
    func requestSync() async {
        await controller?.foreground()
    }

    /// The device's status now (what signing out would lose).
    func currentStatus() async -> SyncStatus {
        guard let status = screens?.device.status else { return SyncStatus() }
        for await current in status.status() { return current }
        return SyncStatus()
    }

    // MARK: - App lifecycle

    /// Back in the foreground: sync now.
    func enteredForeground() {
        guard let controller else { return }
        Task { await controller.foreground() }
    }

    /// Leaving the foreground: save the open draft, then push with the background time iOS gives,
    /// and ask for a background refresh later.
    func enteredBackground() {
        guard let screens else { return }
        let notes = screens.notes
        let device = screens.device
        BackgroundPush.run {
            await notes.flush()
            await Self.syncOnce(device)
        }
        #if os(iOS)
            BackgroundRefresh.schedule()
        #endif
    }

    /// The system's background refresh (BGAppRefreshTask): one run of the same sync the controller
    /// runs, then the next refresh asked for. Cancelled by the system when its time is up; the
    /// run stops at its next step.
    func backgroundRefresh() async {
        #if os(iOS)
            BackgroundRefresh.schedule()
        #endif
        guard let device = screens?.device else { return }
        await Self.syncOnce(device)
    }

    /// One run of the device's whole sync, when signed in. The device's run lock keeps it from
    /// overlapping the controller's.
    private static func syncOnce(_ device: QuireDevice) async {
        let sync: DeviceSync?
        do {
            sync = try device.makeDeviceSync()
        } catch {
            return  // A damaged stored key: the foreground shows it (syncFailure).
        }
        await sync?.syncOnce()
    }

    // MARK: - Device name

    /// What other devices call this one in conflict labels ("Typed on Ada's iPhone").
    private static func deviceName() -> String {
        #if canImport(UIKit)
            UIDevice.current.name
        #else
            ProcessInfo.processInfo.hostName
        #endif
    }
}

/// A failure of the app's own, for people.
struct AppError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension SignedInAccount {
    init(_ session: AccountSession) {
        self.init(username: session.username, server: session.serverURL.absoluteString)
    }
}
