import Foundation
import QuireTestSupport

/// Every account the crash tests need, made in one place.
///
/// Accounts are being reworked: when they change, this is the one function to change.
enum CrashAccounts {
    /// Creates an account in the server database `serverDB` (before or while the server runs) and
    /// returns a bearer token for it.
    static func make(serverDB: URL) async throws -> String {
        try await ServerProcess.addAccount("crash-\(UUID().uuidString.prefix(8).lowercased())", databaseFile: serverDB)
    }
}
