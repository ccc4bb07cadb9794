import QuireClient
import QuireDomain

/// `quire status --json`: every field of the sync status, plus `label`, the line the status bar
/// and `quire watch` show. The field names are a scripting contract: keep them stable.
struct StatusJSON: Encodable {
    var status: SyncStatus
    var label: String
    /// The photo uploads waiting: `photos.uploading`, `photos.uploadedBytes`,
    /// `photos.totalBytes`, `photos.failed`.
    var photos = TripsDatabase.PhotoUploadSummary()

    private enum CodingKeys: String, CodingKey { case label, photos }

    private enum PhotoKeys: String, CodingKey { case uploading, uploadedBytes, totalBytes, failed }

    func encode(to encoder: Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        var uploads = container.nestedContainer(keyedBy: PhotoKeys.self, forKey: .photos)
        try uploads.encode(photos.photos, forKey: .uploading)
        try uploads.encode(photos.uploadedBytes, forKey: .uploadedBytes)
        try uploads.encode(photos.totalBytes, forKey: .totalBytes)
        try uploads.encode(photos.failed, forKey: .failed)
    }
}
