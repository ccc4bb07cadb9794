import Foundation
import QuireClient
import QuireWire

/// Reads a server's whole changes feed for one account through the real API client.
enum ServerFeed {
    /// Every live note (a full resync: no cursor), all pages.
    static func all(_ api: NotesAPIClient) async throws -> [NoteChangeDTO] {
        var changes: [NoteChangeDTO] = []
        var cursor: Cursor?
        while true {
            let page = try await api.changes(since: cursor, limit: 500, wait: 0)
            changes += page.changes
            cursor = Cursor(page.nextCursor)
            if !page.hasMore { return changes }
        }
    }

    /// An API client for `url` with `token`, over URLSession.
    static func client(_ url: URL, token: String) -> NotesAPIClient {
        NotesAPIClient(
            transport: URLSessionTransport(baseURL: url), tokens: StaticTokenProvider(token: token),
            requestTimeout: 10)
    }
}
