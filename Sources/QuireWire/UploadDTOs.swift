import Foundation

/// Resumable uploads (issue 16): tus 1.0 (the core protocol with the creation, expiration and
/// termination extensions) under a trip, so any tus client can upload. The client seals a
/// photo first (QuireCrypto's chunked format) and uploads the ciphertext; the server stores
/// only that.
extension WireRoutes {
    /// `POST` creates an upload of the trip (`Upload-Length`, optional `Upload-Metadata`);
    /// `OPTIONS` tells the protocol version, extensions and limits.
    public static func tripUploads(_ trip: String) -> String { tripsPrefix + trip + "/uploads" }
    /// `HEAD` tells the confirmed offset, `PATCH` appends at it, `DELETE` terminates.
    public static func tripUpload(_ trip: String, _ upload: String) -> String { tripUploads(trip) + "/" + upload }

    /// The tus protocol version the server speaks (`Tus-Resumable`, `Tus-Version`).
    public static let tusVersion = "1.0.0"
    /// The tus extensions the server supports (`Tus-Extension`).
    public static let tusExtensions = "creation,expiration,termination"
    /// The content type of a PATCH body.
    public static let uploadContentType = "application/offset+octet-stream"
    /// The OPTIONS answer's header with the largest PATCH body the server accepts, in bytes (not
    /// a tus header; a client sends larger files in several PATCHes).
    public static let maxChunkSizeHeader = "Quire-Max-Chunk-Size"
}

/// The body of a `201` to `POST /v1/trips/{id}/uploads`, beside its `Location` header (which a
/// tus client reads; the body says the same for clients that read JSON).
public struct UploadCreatedDTO: Codable, Sendable, Equatable {
    /// The upload's id: 32 lowercase hex digits.
    public var id: String
    /// The upload's URL path, as in `Location`.
    public var location: String
    public var length: Int64
    /// When the unfinished upload expires (absent for an empty upload, complete at once).
    public var expiresAt: Date?

    public init(id: String, location: String, length: Int64, expiresAt: Date?) {
        self.id = id
        self.location = location
        self.length = length
        self.expiresAt = expiresAt
    }
}
