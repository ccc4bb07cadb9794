import Foundation
import QuireClient
import QuireCrypto
import QuireTestSupport
import QuireTrips
import Testing

/// A photo attached to an item another device deleted meanwhile (issue 16, part 5: the attach is
/// an ordinary trip op, so it meets a delete as any edit does and must come back with the item).
@Suite struct TripPhotoDeleteTests {
    @Test func aPhotoAttachedWhileAnotherDeviceDeletedTheItemComesBackWithTheRestore() async throws {
        let cluster = try TripsCluster()
        defer { cluster.remove() }
        let (phone, laptop, trip, lunch) = try await TripTwoDeviceTests.lisbonOnBoth(cluster)
        try await phone.database.deleteItem(lunch)
        #expect(await phone.sync().succeeded)

        // The laptop has not seen the delete: it adds a photo, whose upload completes and queues
        // the attach.
        let media = cluster.directory.path("laptop-media")
        let file = cluster.directory.path("beach.jpg")
        try SecureRandom.bytes(5_000).write(to: file)
        let photo = try await PhotoQueue(
            trips: laptop.database, mediaDirectory: media, preparer: CopyingPhotoPreparer()
        )
        .add(file, to: lunch, keepLocation: false)
        let tus = TusClient(
            http: AuthorizedTransport(transport: FakeUploadServer(), tokens: StaticTokenProvider(token: "t")))
        let uploaded = await PhotoUploader(
            database: laptop.database, tus: tus, mediaDirectory: media, pieceSize: 100_000
        )
        .run()
        #expect(uploaded.pushed == 1)

        // The delete won; the attach waits in the delete conflict with the item's other edits.
        #expect(await laptop.sync().fieldConflicts >= 1)
        let conflict = try #require(try await laptop.database.conflicts().first { $0.isDeletedWhileEdited })
        #expect(conflict.photoEdits.keys.sorted() == ["photo.\(photo.id)"])

        try await laptop.database.restoreItem(lunch)
        #expect(await laptop.sync().succeeded)
        #expect(await phone.sync().succeeded)
        for device in [phone, laptop] {
            let photos = try await device.database.photos(of: lunch)
            #expect(photos.map(\.id) == [photo.id], "\(device)")
            #expect(photos.first?.state == .shared && photos.first?.attachment?.photo.size == 5_000)
            #expect(try await device.itinerary(trip) == ["Lunch@a"])
        }
    }
}
