import Foundation
import Testing

@testable import QuireMedia

/// The last check before a copy is handed back: a copy in which location tags are still found is
/// deleted and reported, never returned.
struct LocationSafetyNetTests {
    @Test func aCopyThatStillHasLocationIsDeletedAndReported() throws {
        let scratch = try Scratch()
        let copy = scratch.file("copy.jpg")
        try Data("pretend".utf8).write(to: copy)
        let error = try #require(throws: PhotoProcessingError.self) {
            try PhotoProcessor.requireNoLocation(["GPSLatitude"], in: copy, of: scratch.file("source.jpg"))
        }
        #expect(error.code == .locationRemains)
        #expect(error.description.contains("(GPSLatitude)"))
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        try PhotoProcessor.requireNoLocation([], in: copy, of: scratch.file("source.jpg"))
    }
}
