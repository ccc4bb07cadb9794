import QuireDomain

/// `quire status --json`: every field of the sync status, plus `label`, the line the status bar
/// and `quire watch` show. The field names are a scripting contract: keep them stable.
struct StatusJSON: Encodable {
    var status: SyncStatus
    var label: String

    private enum CodingKeys: String, CodingKey { case label }

    func encode(to encoder: Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
    }
}
