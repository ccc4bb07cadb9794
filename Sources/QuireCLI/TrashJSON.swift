import Foundation

/// A deleted note as `trash --json` prints it. The field names are a scripting contract.
struct TrashJSON: Encodable {
    var id: String
    var title: String
    var body: String
    var deletedAt: Date
    /// The server has its tombstone (false: deleted here, the delete not synced yet).
    var onServer: Bool

    init(_ entry: QuireCommandLine.TrashEntry) {
        id = entry.id.description
        title = entry.title
        body = entry.body
        deletedAt = entry.deletedAt
        onServer = entry.server != nil
    }
}
