import Foundation
import QuireClient

/// A ``CopyingPhotoPreparer`` that records each location choice it was given.
final class RecordingPhotoPreparer: PhotoPreparing, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [Bool] = []

    var keptLocations: [Bool] { lock.withLock { kept } }

    func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
        lock.withLock { kept.append(keepLocation) }
        return try CopyingPhotoPreparer().prepare(source, keepLocation: keepLocation, into: directory)
    }
}
