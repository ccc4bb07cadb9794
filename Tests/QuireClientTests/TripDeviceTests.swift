import Foundation
import QuireClient
import QuireCrypto
import QuireTestSupport
import QuireTrips
import QuireWire
import Testing

/// A device holds its trips beside its notes: its account binding and its erasing cover both, and
/// the trips client refreshes a refused token like the notes client.
@Suite struct TripDeviceTests {
    func session(_ account: String) -> AccountSession {
        AccountSession(
            serverURL: URL(string: "http://127.0.0.1:9")!, username: account, accountId: account,
            accessToken: "a", refreshToken: "r", accessTokenExpiresAt: nil,
            notesKey: SymmetricKey256.random().data.base64EncodedString(),
            kdf: KDFParametersDTO(salt: "c2FsdHNhbHRzYWx0c2FsdA==", iterations: 600_000))
    }

    @Test func aDeviceHoldingAnAccountsTripsRefusesAnotherAccountsSignIn() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let device = try QuireDevice(directory: directory.url)
        try await device.signIn(session("alice"))
        try await device.trips.createTrip(title: "Lisbon")

        await #expect(throws: AccountError.anotherAccountsData) { try await device.signIn(session("bob")) }
        #expect(try await device.trips.boundAccount() == session("alice").databaseAccount)
        #expect(try await device.database.boundAccount() == session("alice").databaseAccount)
    }

    @Test func erasingTheDeviceErasesItsTripsToo() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let device = try QuireDevice(directory: directory.url)
            try await device.trips.createTrip(title: "Lisbon")
            try device.eraseLocalData()
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("trips.sqlite").path))
        #expect(try await QuireDevice(directory: directory.url).trips.trips().isEmpty)
    }

    @Test func aDeviceGivenAStoreKeepsItsSessionThereNotInAFile() async throws {
        // The app passes the Keychain; nothing of the session may land in session.json.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = InMemoryCredentialStore()
        let device = try QuireDevice(directory: directory.url, credentials: store)
        try await device.signIn(session("alice"))

        #expect(try store.load()?.username == "alice")
        #expect(!FileManager.default.fileExists(atPath: directory.path("session.json").path))
        #expect(try device.makeDeviceSync() != nil)
        try device.eraseLocalData()
        #expect(try store.load() == nil)
    }

    @Test func theTripsClientRefreshesARefusedTokenOnceAndRetries() async throws {
        let server = InMemoryTripsServer()
        let transport = RefusingStaleTokens(inner: InMemoryTripsTransport(server: server))
        let tokens = RefreshingTokens(stale: "stale", fresh: "alice")
        let api = TripsAPIClient(transport: transport, tokens: tokens)

        let trip = TripID()
        try await api.createTrip(trip, wrappedKey: "w")
        #expect(try await api.tripsFeed(since: nil, limit: 10, wait: 0).trips.map(\.id) == [trip.description])
        #expect(tokens.refreshes == 1)
    }
}

/// 401 for the token `stale`, anything else through to `inner`.
struct RefusingStaleTokens: HTTPTransport {
    let inner: HTTPTransport

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.headers["Authorization"] != "Bearer stale" else {
            return TransportResponse(
                status: 401, body: Data(#"{"error":{"code":"unauthorized","message":"No."}}"#.utf8))
        }
        return try await inner.send(request)
    }
}

/// Hands out `stale` until a 401, then `fresh`.
///
/// `@unchecked Sendable`: its fields are only touched under `lock`.
final class RefreshingTokens: AccessTokenProvider, @unchecked Sendable {
    private let lock = NSLock()
    private var current: String
    private let fresh: String
    private var count = 0

    init(stale: String, fresh: String) {
        current = stale
        self.fresh = fresh
    }

    var refreshes: Int { lock.withLock { count } }

    func accessToken() async throws -> String? { lock.withLock { current } }

    func refreshedToken(after rejected: String) async throws -> String? {
        lock.withLock {
            count += 1
            current = fresh
            return fresh
        }
    }
}
