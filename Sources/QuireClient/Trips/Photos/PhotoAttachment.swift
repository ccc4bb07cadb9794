import Foundation
import QuireCrypto

/// The value of an item's photo field (`photo.<photo id>`), as JSON inside the field's value,
/// which the trip key seals like every field: what a companion needs to fetch, open and check
/// the photo. The server sees only the sealed value, so none of this (the keys above all)
/// reaches it.
///
/// Queued only after the upload is complete, so a companion who sees it can download at once.
public struct PhotoAttachment: Sendable, Hashable, Codable {
    /// One sealed file on the server: the photo, or its thumbnail.
    public struct File: Sendable, Hashable, Codable {
        /// The upload that holds the ciphertext (32 hex digits); empty until the upload completes.
        public var upload: String
        /// The file's own key (base64 of 32 bytes): ``ChunkedOpener`` opens the ciphertext with it.
        public var key: String
        /// Bytes of plaintext.
        public var size: Int64
        /// Bytes of ciphertext: the upload's length.
        public var sealedSize: Int64
        /// Lowercase hex SHA-256 of the plaintext, checked after opening.
        public var sha256: String

        public init(upload: String, key: String, size: Int64, sealedSize: Int64, sha256: String) {
            self.upload = upload
            self.key = key
            self.size = size
            self.sealedSize = sealedSize
            self.sha256 = sha256
        }

        /// The key as a ``SymmetricKey256``; nil for one that is not 32 bytes of base64.
        public var fileKey: SymmetricKey256? {
            Data(base64Encoded: key).flatMap(SymmetricKey256.init(data:))
        }
    }

    public var photo: File
    public var thumbnail: File?
    public var mediaType: String
    public var width: Int
    public var height: Int

    public init(photo: File, thumbnail: File?, mediaType: String, width: Int, height: Int) {
        self.photo = photo
        self.thumbnail = thumbnail
        self.mediaType = mediaType
        self.width = width
        self.height = height
    }

    /// The field value: compact JSON with sorted keys, so the same attachment is the same value.
    public var fieldValue: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding strings and integers cannot fail.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// The attachment a field value holds; nil for one this version cannot read (shown as a
    /// photo it cannot open, never a crash).
    public init?(fieldValue: String) {
        guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(fieldValue.utf8)) else { return nil }
        self = decoded
    }
}
