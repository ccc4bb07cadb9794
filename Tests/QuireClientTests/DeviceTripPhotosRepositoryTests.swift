import Foundation
import QuireClient
import QuireTestSupport
import QuireTrips
import Testing

/// The app's photo strip's repository over this device's photo queue (issue 16): a photo added is
/// queued with the location choice passed on; signed out, no thumbnail is fetched.
struct DeviceTripPhotosRepositoryTests {
    @Test func aPhotoAddedIsQueuedWithItsLocationChoiceAndCanBeRemoved() async throws {
        let directory = try TemporaryDirectory(prefix: "quire-app-photos")
        defer { directory.remove() }
        let database = try TripsDatabase(fileURL: directory.path("trips.sqlite"))
        let trip = try await database.createTrip(title: "Lisbon")
        let item = try await database.addItem(to: trip, [.title: "Lunch", .order: "a0"])
        let preparer = RecordingPhotoPreparer()
        let repository = DeviceTripPhotosRepository(
            trips: database,
            queue: PhotoQueue(trips: database, mediaDirectory: directory.path("media"), preparer: preparer)
        ) { nil }
        let file = directory.path("beach.jpg")
        try Data(repeating: 7, count: 2_000).write(to: file)

        try await repository.add(file, to: item, keepLocation: true)

        let photos = try await repository.photos(of: item)
        #expect(photos.map(\.stage) == [.queued])
        #expect(photos.first?.uploadBytes ?? 0 > 2_000)
        #expect(preparer.keptLocations == [true])
        // Its thumbnail was queued with it; signed out, it is not fetched.
        #expect(photos.first?.hasThumbnail == true)
        #expect(try await repository.thumbnail(of: try #require(photos.first)) == nil)

        try await repository.remove(try #require(photos.first?.id))
        #expect(try await repository.photos(of: item).allSatisfy { $0.stage == .removing } == true)
    }
}
