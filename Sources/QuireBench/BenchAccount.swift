import Foundation
import QuireServer

/// The one place the benchmarks get an account's bearer token.
///
/// Accounts are being reworked (register and login routes may replace `createAccount`): when they
/// change, only this function does.
enum BenchAccount {
    /// Creates a fresh account on `server` and returns its name and a bearer token for it.
    static func make(server: NotesServer) async throws -> (username: String, token: String) {
        let username = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        return (username, try await server.createAccount(username: username))
    }
}
