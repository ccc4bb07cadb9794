import Foundation

@testable import QuireServer

extension ServerHarness {
    /// Another server on this harness's database and clock, on either store: a second
    /// connection to the SQLite file (another process, or this one restarted), or another
    /// instance on the PostgreSQL database.
    func anotherInstance(configuration: NotesServerConfiguration = ServerHarness.configuration)
        async throws -> NotesServer
    {
        guard store == .postgres else {
            let clock = self.clock
            return try NotesServer.sqlite(
                path: databasePath, configuration: configuration, now: { clock.now }, log: { _ in })
        }
        return try await secondInstance(configuration: configuration)
    }
}
