import Foundation
import QuireDomain

/// One device: its data directory, its database, its remote, and the parts built on them.
///
/// Several devices can live on one machine, each with its own directory. The notes are in
/// `notes.sqlite`, the trips in `trips.sqlite`; the signed-in account (tokens and the notes key)
/// is `session.json`, mode 0600.
public final class QuireDevice: Sendable {
    public let directory: URL
    public let database: NotesDatabase
    /// The device's trips and itineraries (seed 002).
    public let trips: TripsDatabase
    public let notes: LocalNotesRepository
    /// The status of notes and trips together.
    public let status: LocalSyncStatusRepository

    /// Where this device keeps its signed-in account: by default `session.json` in the directory,
    /// mode 0600; the app passes the Keychain.
    public let credentials: CredentialStore

    /// Opens (creating if needed) the device at `directory`. Throws when the directory cannot be
    /// made or the database cannot be opened.
    /// - Parameter credentials: where the session is kept; nil: `session.json` in `directory`.
    /// Bytes of one upload PATCH and of one download GET of a photo.
    public let photoPieceBytes: Int

    /// 4 MiB: half the server's default `--upload-chunk-mib`.
    public static let defaultPhotoPieceBytes = 4 * 1024 * 1024

    public init(
        directory: URL, credentials: CredentialStore? = nil, photoPieceBytes: Int = QuireDevice.defaultPhotoPieceBytes,
        now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        self.photoPieceBytes = max(1, photoPieceBytes)
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        self.directory = directory
        self.credentials = credentials ?? FileCredentialStore(directory: directory)
        self.database = try NotesDatabase(
            fileURL: directory.appendingPathComponent("notes.sqlite"), now: now)
        self.trips = try TripsDatabase(fileURL: directory.appendingPathComponent("trips.sqlite"), now: now)
        self.notes = LocalNotesRepository(records: database)
        let runLock = FileSyncRunLock(directory: directory)
        self.status = LocalSyncStatusRepository(records: database, trips: trips, runGoing: { runLock.isHeld() })
    }

    // MARK: - Account

    /// Throws ``AccountError/anotherAccountsData`` when this device holds notes of an account other
    /// than `username` on `serverURL`: one account's text must never move into another's. A device
    /// with no notes, or signed in to that account before, may sign in. Check before asking for a
    /// password; ``signIn(_:)`` checks again with the account's id.
    public func checkCanSignIn(as username: String, on serverURL: URL) async throws {
        guard try await holdsData() else { return }
        if let stored = try? credentials.load() {
            guard stored.username == username, stored.serverURL == serverURL else {
                throw AccountError.anotherAccountsData.with(
                    message: "This device holds the notes of \(stored.username) on "
                        + "\(stored.serverURL.absoluteString). Sign out first: quire logout (it warns "
                        + "about anything not yet synced), then sign in as \(username).")
            }
        } else if try await database.boundAccount() != nil {
            throw AccountError.anotherAccountsData
        } else if try await trips.boundAccount() != nil {
            throw AccountError.anotherAccountsData
        }
    }

    /// Stores the session from a sign-in (or a password change) and binds the database to its
    /// account. Throws ``AccountError/anotherAccountsData`` (nothing stored) when the database is
    /// bound to another account and holds notes; notes written before any sign-in join the account.
    public func signIn(_ session: AccountSession) async throws {
        for bound in [try await database.boundAccount(), try await trips.boundAccount()] {
            if let bound, bound != session.databaseAccount, try await holdsData() {
                throw AccountError.anotherAccountsData
            }
        }
        // The databases refuse the same again, whoever asks: the rule lives where the data does.
        try await database.bindAccount(session.databaseAccount)
        try await trips.bindAccount(session.databaseAccount)
        try credentials.save(session)
    }

    /// A sync engine for the signed-in account: tokens refreshed from the credential store, payloads
    /// sealed with the notes key. A session the server signed out still gives an engine: its syncs
    /// stop with "signed out" and the notes stay.
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeEngine(session: AccountSession, transport: HTTPTransport? = nil) throws -> NotesSyncEngine {
        try makeSyncParts(session: session, transport: transport).engine
    }

    /// The engine and the API client it uses, sharing one token provider: two providers refreshing
    /// the same session would present one refresh token twice, which the server treats as theft.
    public func makeSyncParts(session: AccountSession, transport: HTTPTransport? = nil) throws -> (
        engine: NotesSyncEngine, api: NotesAPIClient
    ) {
        let notes = try makeDeviceSync(session: session, transport: transport).notes
        return (notes.engine, notes.api)
    }

    /// The device's whole sync for the signed-in account: the notes, then the trips, then the
    /// photo uploads (``PhotosSyncPart``), each with its engine, sharing one transport, one token provider and the directory's sync lock (`quire
    /// watch` and a `quire sync` are two processes on one device: one run at a time).
    /// - Throws: ``AccountError/unreadableSession`` when the stored notes key is damaged.
    public func makeDeviceSync(session: AccountSession, transport: HTTPTransport? = nil) throws -> DeviceSync {
        try makeDeviceSync(session: session, transport: transport).sync
    }

    private func makeDeviceSync(session: AccountSession, transport: HTTPTransport?) throws -> (
        sync: DeviceSync, notes: (engine: NotesSyncEngine, api: NotesAPIClient)
    ) {
        let transport = transport ?? LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        let tokens = SessionTokenProvider(store: credentials, accounts: AccountsAPIClient(transport: transport))
        let notesAPI = NotesAPIClient(transport: transport, tokens: tokens)
        let lock = FileSyncRunLock(directory: directory)
        let notesKey = try session.notesKeyValue()
        let notesEngine = NotesSyncEngine(
            records: database, api: notesAPI, codec: SealedPayloadCodec(notesKey: notesKey, account: session.account),
            account: session.databaseAccount, runLock: lock)
        let sharing = TripSharing(
            api: TripSharingAPIClient(transport: transport, tokens: tokens), database: trips, notesKey: notesKey,
            account: session.account, username: session.username, server: session.serverURL)
        let tripsEngine = TripsSyncEngine(
            database: trips, api: TripsAPIClient(transport: transport, tokens: tokens),
            keys: TripKeyWrapping(notesKey: notesKey, account: session.account), keySource: sharing,
            account: session.databaseAccount, runLock: lock)
        let sync = DeviceSync(parts: [
            NotesSyncPart(engine: notesEngine, records: database, api: notesAPI),
            TripsSyncPart(engine: tripsEngine, database: trips),
            makePhotosPart(
                tus: TusClient(http: AuthorizedTransport(transport: transport, tokens: tokens)),
                trips: tripsEngine, runLock: lock),
        ])
        return (sync, (notesEngine, notesAPI))
    }

    /// The device's whole sync for the signed-in account, or nil when this device has never
    /// signed in: what `quire sync` runs.
    public func makeDeviceSync(transport: HTTPTransport? = nil) throws -> DeviceSync? {
        guard let session = try credentials.load() else { return nil }
        return try makeDeviceSync(session: session, transport: transport)
    }

    /// A controller that keeps this device's notes and trips in sync by itself (`quire watch`,
    /// the app): triggers, backoff, and long-polls for other devices' changes. `engine` is the
    /// notes' engine (its progress and metrics). nil when not signed in.
    /// - Parameter network: tells the controller when to try again (the app passes NWPathMonitor's
    ///   path); nil: a probe of the server that notices when it answers again.
    public func makeController(
        clock: any Clock<Duration> = ContinuousClock(), longPollWait: Int = 25, network: NetworkPath? = nil
    ) throws -> (controller: SyncController, engine: NotesSyncEngine)? {
        guard let session = try credentials.load() else { return nil }
        let transport = LiveTransport.make(baseURL: session.serverURL, trust: session.trust)
        let (sync, notes) = try makeDeviceSync(session: session, transport: transport)
        let network = network ?? ServerReachability(transport: transport, clock: clock)
        let controller = SyncController(
            parts: sync.parts, network: network, clock: clock, longPollWait: longPollWait,
            otherProcessPoll: .milliseconds(500))
        return (controller, notes.engine)
    }

    /// Forgets the account and erases this device's notes and trips: the stored session and the
    /// database files. Call after the user confirmed losing unsynced changes. The open databases
    /// keep working until this process ends; the next start begins empty.
    public func eraseLocalData() throws {
        try credentials.clear()
        for name in ["notes.sqlite", "trips.sqlite"] {
            for suffix in ["", "-wal", "-shm"] {
                let file = directory.appendingPathComponent(name + suffix)
                if FileManager.default.fileExists(atPath: file.path) {
                    try FileManager.default.removeItem(at: file)
                }
            }
        }
        for folder in [mediaDirectory, photoCacheDirectory] where FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.removeItem(at: folder)
        }
    }

    /// True when the device holds any note or trip (tombstones and waiting changes included).
    private func holdsData() async throws -> Bool {
        if try await database.holdsNotes() { return true }
        return try await trips.holdsTrips()
    }

    /// A sync engine for the signed-in account, or nil when this device has never signed in.
    public func makeEngine(transport: HTTPTransport? = nil) throws -> NotesSyncEngine? {
        guard let session = try credentials.load() else { return nil }
        return try makeEngine(session: session, transport: transport)
    }
}
