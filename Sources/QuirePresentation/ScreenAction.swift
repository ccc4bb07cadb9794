import Foundation

/// How a screen's action reports a failure: "Couldn't <what>: why".
enum ScreenAction {
    /// Runs `action`; nil when it succeeded, else what to say.
    @MainActor
    static func failure(_ what: String, _ action: () async throws -> Void) async -> String? {
        do {
            try await action()
            return nil
        } catch {
            return "Couldn't \(what): \(error)"
        }
    }
}
