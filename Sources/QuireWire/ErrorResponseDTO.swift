import Foundation

/// Every error the server sends: `{"error": {"code": "snake_case_code", "message": "what went wrong"}}`.
public struct ErrorResponseDTO: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
        /// Stable, machine-readable: `invalid_json`, `cursor_expired`, `not_found`, …
        public var code: String
        /// For people: what went wrong and what to do.
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var error: Detail

    public init(code: String, message: String) {
        self.error = Detail(code: code, message: message)
    }
}
