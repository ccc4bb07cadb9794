import Foundation
import QuireTestSupport
import Testing

/// Two `quire-server`s on one SQLite file: SQLite would keep the data whole, but each server's
/// long-polls would wake only for its own writes, and each would wait on the other's locks. The
/// second stops at start, says which server holds the file and what to run instead, and the
/// first serves on.
extension ServerExecutableTests {
    @Test func aSecondServerOnOneSQLiteFileStopsAtStartAndNamesTheFirst() async throws {
        let first = try await ServerProcess.start(database: database)

        // Served beside the first, it would run until the timeout kills it (status 137).
        let second = try await ProcessRunner.run(try Self.binary(), ["--port", "0", "--db", database], timeout: 20)

        #expect(second.exitCode == 75, "\(second.stderr)")
        #expect(second.stderr.contains("another quire-server (pid \(first.pid)) is serving \(database)"))
        #expect(second.stderr.contains("--db postgres://"), "says how to run several instances")
        #expect(!second.stdout.contains("listening on"))
        #expect(first.isRunning)

        // Once the first stops, the file is free again.
        #expect(await first.stop() == 0)
        let third = try await ServerProcess.start(database: database)
        #expect(await third.stop() == 0)
    }

    @Test func aServerKilledWithSIGKILLLeavesTheFileFreeForTheNext() async throws {
        let first = try await ServerProcess.start(database: database)
        await first.kill9()

        let next = try await ServerProcess.start(database: database)
        #expect(await next.stop() == 0)
    }
}
