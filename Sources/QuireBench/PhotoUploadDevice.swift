import Foundation
import QuireTestSupport

/// The uploading device of the photo benchmark as a user runs it: the built `quire` (found beside
/// this bench, as `swift build -c release` leaves it) registers on the bench's server, plans a
/// trip with one item and syncs it, adds a real JPEG to the item (`quire trip photo add`: sealed
/// into its media folder, the thumbnail made by `quire-photo`), then uploads it with
/// `quire sync`, whose peak resident memory (VmHWM, read from `/proc` while it runs, as
/// `KilledPhotoUploadTests` reads it) is the figure.
///
/// The bench's own child (``PhotoUploadChild``) times the upload, but its memory is the bench
/// binary's, which links the server, PostgreSQL's client and libvips: about 10 MB more than
/// `quire` before it does anything (docs/benchmarks.md, "Missed targets").
enum PhotoUploadDevice {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `quire sync`'s peak resident memory, in bytes, uploading a JPEG of about `megabytes` MB.
    /// Throws ``BuiltProducts/Missing`` when `quire` is not built, or a ``Failure`` naming the
    /// step that failed.
    static func peakOfSync(baseURL: URL, directory: URL, megabytes: Int) async throws -> Int {
        let quire = try BuiltProducts.executable("quire")
        let device = directory.appendingPathComponent("device").path
        func ok(_ arguments: [String], stdin: String? = nil) async throws -> String {
            let result = try await ProcessRunner.run(
                quire, ["--data-dir", device] + arguments, stdin: stdin, timeout: 600)
            guard result.exitCode == 0 else {
                throw Failure(description: "quire \(arguments.first ?? "") exited \(result.exitCode): \(result.stderr)")
            }
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try await ok(
            ["register", baseURL.absoluteString, "bench-photo-\(UUID().uuidString.prefix(8))", "--password-stdin"],
            stdin: "correct horse battery staple\n")
        let trip = try await ok(["trip", "new", "Lisbon", "--from", "2027-06-09", "--to", "2027-06-12"])
        let lunch = try await ok([
            "trip", "add", trip, "--title", "Lunch", "--kind", "meal", "--at", "2027-06-10 12:00", "--zone",
            "Europe/Lisbon",
        ])
        _ = try await ok(["sync"])
        let photo = directory.appendingPathComponent("photo.jpg")
        try await TestPhotoFile.jpeg(at: photo, megabytes: Double(megabytes), location: false)
        _ = try await ok(["trip", "photo", "add", lunch, photo.path, "--keep-location"])

        let sync = try BackgroundProcess.start(
            quire, ["--data-dir", device, "sync"], outputFile: directory.appendingPathComponent("sync.log"))
        let peak = try await ProcessPeakMemory.watch(pid: sync.pid, while: { sync.isRunning })
        guard sync.exitStatus == 0 else {
            throw Failure(description: "quire sync exited \(sync.exitStatus ?? -1): \(sync.output)")
        }
        guard peak.own > 0 else { throw Failure(description: "no VmHWM read for quire sync") }
        // The photo must be on the server: a sync that uploaded nothing measured nothing.
        struct Photo: Decodable { var state: String }
        let listed = try await ok(["trip", "photos", lunch, "--json"])
        let photos = try JSONDecoder().decode([Photo].self, from: Data(listed.utf8))
        guard photos.map(\.state) == ["shared"] else {
            throw Failure(description: "the photo was not uploaded: \(listed)")
        }
        return peak.own
    }
}
