import Foundation

extension NotesServer {
    /// The seal of every cursor this server issues and reads, from the server secret the
    /// instances on one database share; read from the store once, then kept (the secret never
    /// changes). Throws what the store's ``ServerStorage/serverSecret()`` throws.
    func cursorSeal() async throws -> CursorSeal {
        if let seal = cursorSealCache.withLock({ $0 }) { return seal }
        let seal = CursorSeal(serverSecret: try await storage.serverSecret())
        cursorSealCache.withLock { $0 = seal }
        return seal
    }
}

extension NotesServer {
    /// The feed sequence inside a notes cursor this server gave `username`'s account, or nil
    /// when it is none. Only the simulation's check that a device's cursor never moves back
    /// looks inside; the product treats cursors as opaque.
    package func feedSequence(ofCursor text: String, username: String) async throws -> Int64? {
        guard let account = try await storage.account(username: username) else { return nil }
        let cursor = ChangeCursor(text: text, seal: try await cursorSeal(), scope: .notes(account.id))
        return cursor.flatMap { $0.fullListing ? nil : $0.seq }
    }
}
