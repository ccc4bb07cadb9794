import Foundation

/// A version as `quire history --json` prints it. The field names are a scripting contract. In
/// QuireClient so the benchmark does the command's work (the CLI is an executable target).
public struct NoteVersionJSON: Encodable {
    /// The server's version number; null for a text only this device kept.
    var version: Int?
    /// What `--version` takes: `5`, or `L12`.
    var ref: String
    var savedAt: Date
    /// Where it was typed: "this device", a device's name, or "unknown device".
    var device: String
    var title: String
    var body: String
    /// Bytes of title and body.
    var size: Int
    var current: Bool
    var onServer: Bool

    public init(_ version: NoteVersion) {
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

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)  // null, not absent
        try container.encode(ref, forKey: .ref)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encode(device, forKey: .device)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(size, forKey: .size)
        try container.encode(current, forKey: .current)
        try container.encode(onServer, forKey: .onServer)
    }
}
