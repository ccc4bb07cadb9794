import Foundation
import QuireClient

/// `quire history ID --json` as the CLI prints it: its `HistoryVersionJSON` fields and its
/// encoder's settings (pretty, sorted keys, ISO 8601 dates), copied because the CLI is an
/// executable target the bench cannot import.
struct HistoryListJSON: Encodable {
    var version: Int?
    var ref: String
    var savedAt: Date
    var device: String
    var title: String
    var body: String
    var size: Int
    var current: Bool
    var onServer: Bool

    init(_ version: NoteVersion) {
        self.version = version.version
        ref = version.reference
        savedAt = version.savedAt
        device = version.device
        title = version.title
        body = version.body
        size = version.title.utf8.count + version.body.utf8.count
        current = version.isCurrent
        onServer = version.version != nil
    }

    enum CodingKeys: String, CodingKey { case version, ref, savedAt, device, title, body, size, current, onServer }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)  // null, not absent, as the CLI's
        try container.encode(ref, forKey: .ref)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encode(device, forKey: .device)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(size, forKey: .size)
        try container.encode(current, forKey: .current)
        try container.encode(onServer, forKey: .onServer)
    }

    /// The whole listing as the CLI writes it to standard output.
    static func encode(_ versions: [NoteVersion]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(versions.map(HistoryListJSON.init))
    }
}
