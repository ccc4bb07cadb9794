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
