import Foundation
import PhotosUI
import SwiftUI
import UniformTypeIdentifiers

/// A photo picked with `PhotosPicker` as a file the photo queue can read: the queue prepares and
/// seals its own copies, so the caller removes this file once the photo is added.
enum PickedPhoto {
    /// Writes the picked photo's bytes to a new temporary file named with its type's extension
    /// (HEIC, JPEG, PNG...); nil when the picker gives no data (a photo not downloaded from iCloud).
    static func file(from item: PhotosPickerItem) async throws -> URL? {
        guard let data = try await item.loadTransferable(type: Data.self) else { return nil }
        let pathExtension = item.supportedContentTypes.first?.preferredFilenameExtension ?? "jpg"
        let name = UUID().uuidString + "." + pathExtension
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try data.write(to: file, options: .atomic)
        return file
    }
}
