import Foundation
import QuireWire

/// The first-sync baseline: `curl` fetching the same feed pages (`GET /v1/notes/changes?limit=500`,
/// following `nextCursor`) from the same server with the same bearer token: the server's and the
/// network's share of a first sync, with no client work.
enum CurlBaseline {
    struct Result {
        /// Sum of curl's `time_total` over the pages (process start-up excluded).
        var seconds: Double
        var bytes: Int
        var pages: Int
        var notes: Int
    }

    /// Fetches every page; nil when `curl` is not installed. Throws when a page fails.
    static func fetchAll(baseURL: URL, token: String, limit: Int, scratch: URL) throws -> Result? {
        guard let curl = Child.which("curl") else { return nil }
        let file = scratch.appendingPathComponent("page.json")
        var result = Result(seconds: 0, bytes: 0, pages: 0, notes: 0)
        var cursor: String?
        while true {
            var url = baseURL.absoluteString + WireRoutes.changes + "?limit=\(limit)"
            if let cursor {
                url += "&since=" + (cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor)
            }
            let (status, output) = try Child.run(
                curl,
                [
                    "-s", "-f", "-o", file.path, "-w", "%{time_total} %{size_download}",
                    "-H", "Authorization: Bearer \(token)", "-H", "Accept: application/json", url,
                ])
            let fields = String(decoding: output, as: UTF8.self).split(separator: " ")
            guard status == 0, fields.count == 2, let seconds = Double(fields[0]),
                let bytes = Int(fields[1])
            else { throw BenchFailure("curl failed (\(status)) on \(url)") }
            let page = try WireJSON.decoder().decode(ChangesPageDTO.self, from: Data(contentsOf: file))
            result.seconds += seconds
            result.bytes += bytes
            result.pages += 1
            result.notes += page.changes.count
            cursor = page.nextCursor
            if !page.hasMore { break }
        }
        return result
    }
}
