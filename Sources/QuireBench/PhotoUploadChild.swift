import Foundation
import QuireClient
import QuireTrips

/// The uploading device of the photo benchmark, run as a child process so its peak memory is
/// its own: `quire-bench __photo-upload-child URL TOKEN TRIP DIR FILE PIECE_BYTES`.
///
/// Makes a trips database in DIR holding TRIP (already on the server) with one item, queues FILE
/// on it as the CLI does (sealed into DIR/media, ``PhotoQueue``), then drains the queue over the
/// device's live transport (``PhotoUploader``, PATCHes of PIECE_BYTES), and prints one JSON line:
/// ``Report``. Exits 1 (with a message on standard error) when it cannot.
enum PhotoUploadChild {
    static let subcommand = "__photo-upload-child"

    struct Report: Codable {
        /// Sealing the file into the media folder, inside the child.
        var sealSeconds: Double
        /// Draining the queue: every PATCH, from the first request to the attach queued.
        var uploadSeconds: Double
        /// The upload's length: the sealed file's bytes.
        var sealedBytes: Int64
        var failure: String?
        /// `VmHWM` of `/proc/self/status` just before exiting, in KiB; nil where there is none.
        var peakKiB: Int?
    }

    /// Copies the photo as it is, with no thumbnail: the benchmark measures sealing and sending.
    struct Unprocessed: PhotoPreparing {
        func prepare(_ source: URL, keepLocation: Bool, into directory: URL) throws -> PreparedPhoto {
            let copy = directory.appendingPathComponent("photo")
            try FileManager.default.copyItem(at: source, to: copy)
            return PreparedPhoto(photo: copy, thumbnail: nil, mediaType: "image/jpeg", width: 0, height: 0)
        }
    }

    static func main(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 6, let url = URL(string: arguments[0]), let trip = TripID(arguments[2]),
            let piece = Int(arguments[5])
        else {
            FileHandle.standardError.write(Data("usage: \(subcommand) URL TOKEN TRIP DIR FILE PIECE_BYTES\n".utf8))
            return 64
        }
        do {
            let directory = URL(fileURLWithPath: arguments[3])
            let database = try TripsDatabase(fileURL: directory.appendingPathComponent("trips.sqlite"))
            try await database.createTrip(title: "bench", id: trip)
            try await database.markOnServer(trip)
            let item = try await database.addItem(to: trip, [.title: "photo", .order: "a0"])
            let media = directory.appendingPathComponent("media")
            let clock = ContinuousClock()
            let sealStart = clock.now
            let photo = try await PhotoQueue(trips: database, mediaDirectory: media, preparer: Unprocessed()).add(
                URL(fileURLWithPath: arguments[4]), to: item, keepLocation: true)
            let sealed = clock.now - sealStart
            let uploader = PhotoUploader(
                database: database,
                tus: TusClient(
                    http: AuthorizedTransport(
                        transport: LiveTransport.make(baseURL: url), tokens: StaticTokenProvider(token: arguments[1]))),
                mediaDirectory: media, pieceSize: piece)
            let uploadStart = clock.now
            let report = await uploader.run()
            let uploaded = clock.now - uploadStart
            let result = Report(
                sealSeconds: sealed.seconds, uploadSeconds: uploaded.seconds, sealedBytes: photo.uploadBytes,
                failure: report.failure.map(\.message) ?? (report.pushed == 1 ? nil : "the photo was not attached"),
                peakKiB: SyncChild.peakMemoryKiB())
            FileHandle.standardOutput.write(try JSONEncoder().encode(result) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
            return 1
        }
    }
}
