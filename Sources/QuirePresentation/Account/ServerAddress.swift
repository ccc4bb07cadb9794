import Foundation

/// The server address typed into the account form, as a URL the app may talk to. App Transport
/// Security is met by HTTPS, never by an exception: an address without a scheme is HTTPS, and any
/// other scheme is refused. Pure.
enum ServerAddress {
    struct Problem: Error, Equatable {
        let message: String
    }

    static func parse(_ text: String) -> Result<URL, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .failure(Problem(message: "Enter the server's address.")) }
        let full = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let url = URL(string: full), let scheme = url.scheme?.lowercased() else {
            return .failure(Problem(message: "“\(trimmed)” is not a server address."))
        }
        guard scheme == "https" else {
            return .failure(Problem(message: "Use an https:// address: the app talks to servers only over HTTPS."))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(Problem(message: "“\(trimmed)” is not a server address."))
        }
        return .success(url)
    }
}
